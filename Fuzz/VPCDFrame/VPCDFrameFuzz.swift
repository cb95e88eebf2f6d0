// libFuzzer target for the vpcd frame decoder, as the virtual card reads pcscd's vpcd driver over TCP: any bytes,
// fed whole and in pieces of every size the input's first byte picks. Compiled by scripts/test.d/30-fuzz.sh with the
// decoder's files and the EMV files they import (`modules`).
import EMV

/// The libFuzzer entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = frames(of: input, piece: max(1, input.count))
    let step = Int(input.first ?? 1) % 7 + 1
    // TCP may cut the stream anywhere: the frames may not depend on where.
    if frames(of: input, piece: step) != whole {
        fatalError("invariant failed: the frames depend on how the bytes arrived")
    }
    return 0
}

/// What the decoder made of `input` arriving `piece` bytes at a time: each frame in order (nil for a refused one,
/// after which decoding goes on), and whether the stream ended on a frame boundary.
private func frames(of input: [UInt8], piece: Int) -> [VPCDFrame?] {
    var decoder = VPCDFrameDecoder()
    var frames: [VPCDFrame?] = []
    var start = 0
    while start < input.count {
        decoder.append(input[start..<min(start + piece, input.count)])
        start += piece
        while true {
            do {
                guard let frame = try decoder.nextFrame() else { break }
                if case .command(let apdu) = frame, apdu.count > VPCDFrame.maximumPayloadLength {
                    fatalError("invariant failed: a payload over the maximum")
                }
                frames.append(frame)
            } catch {
                frames.append(nil)
            }
        }
    }
    if (try? decoder.finish()) == nil { frames.append(nil) }
    return frames
}
