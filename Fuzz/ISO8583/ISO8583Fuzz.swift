// libFuzzer target for the ISO 8583 codec and its TCP framing, as the issuer host and the gateway's issuer link read
// them from the network, and the authorization model read from what decodes: any bytes under each built-in
// specification, and as a stream of length-prefixed frames. Compiled by scripts/test.d/30-fuzz.sh with the ISO 8583
// sources and the EMV files they import (`modules`); seeded with the messages of
// Tests/ISO8583Tests/Vectors/pyiso8583-examples.json (pyiso8583 4.0.1's examples). Besides crashes, it traps
// (fatalError) when an invariant fails, so libFuzzer reports those as findings too.
import EMV

/// The libFuzzer entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    for specification in [Specification.contactless, .default, .defaultASCII] {
        checkMessage(input, specification)
    }
    checkFraming(input)
    return 0
}

private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant failed: \(message())") }
}

/// A message that decodes encodes again, and what it encodes to decodes to the same message.
private func checkMessage(_ input: [UInt8], _ specification: Specification) {
    guard let message = try? ISO8583Message(decoding: input, using: specification) else { return }
    _ = message.description
    _ = try? message.iccData()
    // What the issuer host and the gateway read from a message: typed fields, or a typed refusal.
    if let request = try? ReceivedAuthorizationRequest(message) {
        _ = request.track2
        _ = request.cryptogramAmount
        _ = request.description
    }
    _ = try? AuthorizationResponse(message)
    _ = AuthorizationReference(message)
    guard let encoded = try? message.encoded(using: specification) else { return }
    guard let again = try? ISO8583Message(decoding: encoded, using: specification) else {
        fatalError("invariant failed: a re-encoded \(specification.name) message does not decode")
    }
    require(again == message, "a \(specification.name) message changed through encode and decode")
}

/// Frames come out of a stream whole, in order, each within the limit; whatever is left is shorter than a frame.
private func checkFraming(_ input: [UInt8]) {
    let framing = ISO8583Framing(maximumMessageLength: 4_096)
    var buffer = input
    var taken = 0
    while let message = try? framing.nextMessage(from: &buffer) {
        require(message.count <= 4_096, "a frame over the limit")
        taken += ISO8583Framing.prefixLength + message.count
        require(taken + buffer.count == input.count, "bytes lost or invented between frames")
    }
    if let frame = try? framing.deframe(input) {
        require(frame.count + ISO8583Framing.prefixLength == input.count, "deframe returned a short frame")
    }
}
