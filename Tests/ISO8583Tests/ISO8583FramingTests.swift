import ISO8583
import Testing

struct ISO8583FramingTests {
    let framing = ISO8583Framing()

    @Test func framesAndDeframes() throws {
        let message = ascii("0210000000000200000005")
        let frame = try framing.frame(message)
        #expect(Array(frame.prefix(2)) == [0x00, 22])
        #expect(Array(try framing.deframe(frame)) == message)
    }

    @Test func streamsMessagesAcrossReads() throws {
        let first = try framing.frame([1, 2, 3])
        let second = try framing.frame([UInt8](repeating: 7, count: 300))
        var buffer = first + second.prefix(100)
        #expect(try framing.nextMessage(from: &buffer) == [1, 2, 3])
        #expect(try framing.nextMessage(from: &buffer) == nil)
        buffer += second.dropFirst(100)
        #expect(try framing.nextMessage(from: &buffer)?.count == 300)
        #expect(buffer.isEmpty)
        #expect(try framing.nextMessage(from: &buffer) == nil)
    }

    @Test func rejectsShortAndOversizedFrames() {
        #expect(throws: ISO8583Error.truncatedFrame) { try framing.deframe([0x00]) }
        #expect(throws: ISO8583Error.truncatedFrame) { try framing.deframe([0x00, 0x05, 1, 2]) }
        #expect(throws: ISO8583Error.trailingBytes) { try framing.deframe([0x00, 0x01, 1, 2]) }
        let small = ISO8583Framing(maximumMessageLength: 100)
        #expect(throws: ISO8583Error.oversizedFrame) { try small.frame([UInt8](repeating: 0, count: 101)) }
        #expect(throws: ISO8583Error.oversizedFrame) { try framing.frame([UInt8](repeating: 0, count: 65_536)) }
        var buffer: [UInt8] = [0x01, 0x00]
        #expect(throws: ISO8583Error.oversizedFrame) { try small.nextMessage(from: &buffer) }
    }
}
