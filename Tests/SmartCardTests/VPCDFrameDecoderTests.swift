import EMV
import SmartCard
import Testing

@Suite("VPCDFrameDecoder")
struct VPCDFrameDecoderTests {
    static let session: [VPCDFrame] = [
        .powerOn, .getATR, .command(CommandAPDU.selectPPSE.bytes), .reset, .command([0x80, 0x02, 0x00, 0x00]),
        .powerOff,
    ]

    @Test("frames cut at every byte come out whole, in order")
    func byteByByte() throws {
        var decoder = VPCDFrameDecoder()
        var frames: [VPCDFrame] = []
        for byte in Self.session.flatMap(\.encoded) {
            decoder.append([byte])
            while let frame = try decoder.nextFrame() { frames.append(frame) }
        }
        #expect(frames == Self.session)
        try decoder.finish()
    }

    @Test("several frames in one read")
    func coalesced() throws {
        var decoder = VPCDFrameDecoder()
        decoder.append(Self.session.flatMap(\.encoded))
        var frames: [VPCDFrame] = []
        while let frame = try decoder.nextFrame() { frames.append(frame) }
        #expect(frames == Self.session)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test("control bytes map to the protocol's messages; two bytes or more are a command")
    func payloads() throws {
        #expect(try VPCDFrame(payload: [0x00]) == .powerOff)
        #expect(try VPCDFrame(payload: [0x01]) == .powerOn)
        #expect(try VPCDFrame(payload: [0x02]) == .reset)
        #expect(try VPCDFrame(payload: [0x04]) == .getATR)
        #expect(try VPCDFrame(payload: [0x00, 0xA4]) == .command([0x00, 0xA4]))
        #expect(VPCDFrame.getATR.encoded == [0x00, 0x01, 0x04])
    }

    @Test("a zero-length frame is an error, and the stream stays in step")
    func emptyFrame() throws {
        var decoder = VPCDFrameDecoder()
        decoder.append([0x00, 0x00] + VPCDFrame.getATR.encoded)
        #expect(throws: VPCDError.emptyFrame) { try decoder.nextFrame() }
        #expect(try decoder.nextFrame() == .getATR)
    }

    @Test(
        "an unknown control code is an error, and the stream stays in step", arguments: [0x03, 0x05, 0xFF] as [UInt8])
    func unknownControl(code: UInt8) throws {
        var decoder = VPCDFrameDecoder()
        decoder.append([0x00, 0x01, code] + VPCDFrame.powerOn.encoded)
        #expect(throws: VPCDError.unknownControlCode) { try decoder.nextFrame() }
        #expect(try decoder.nextFrame() == .powerOn)
    }

    @Test("a length larger than the data waits for more, and is truncated when the stream ends")
    func lengthBeyondData() throws {
        var decoder = VPCDFrameDecoder()
        decoder.append([0x01, 0x00, 0x00, 0xA4])
        #expect(try decoder.nextFrame() == nil)
        #expect(throws: VPCDError.truncatedFrame) { try decoder.finish() }

        var halfLength = VPCDFrameDecoder()
        halfLength.append([0x00])
        #expect(try halfLength.nextFrame() == nil)
        #expect(throws: VPCDError.truncatedFrame) { try halfLength.finish() }
    }

    @Test("the largest frame, 65,535 bytes, decodes")
    func largestFrame() throws {
        var decoder = VPCDFrameDecoder()
        let payload = [UInt8](repeating: 0x5A, count: VPCDFrame.maximumPayloadLength)
        decoder.append([0xFF, 0xFF] + payload)
        #expect(try decoder.nextFrame() == .command(payload))
    }

    @Test("errors carry no frame bytes")
    func messagesWithoutData() throws {
        var decoder = VPCDFrameDecoder()
        decoder.append([0x00, 0x01, 0xC7])
        do {
            _ = try decoder.nextFrame()
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("C7"))  // the control code is protocol, not card data
        }
    }
}
