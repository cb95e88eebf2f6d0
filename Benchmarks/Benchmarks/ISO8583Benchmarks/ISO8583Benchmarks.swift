import Benchmark
import ISO8583

/// The ISO 8583 work of one authorization on each side of the gateway↔issuer link: encoding a 0100 with the fields
/// the gateway sends (PAN, track 2, amounts, terminal and merchant ids, 120 bytes of ICC data) and decoding it, in
/// the `contactless` dialect.
/// Run from the repository root: `cd Benchmarks && swift package --disable-sandbox benchmark --no-progress`.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        maxDuration: .seconds(2),
        maxIterations: 1_000_000
    )

    Benchmark("ISO 8583 encode: 0100 authorization request (16 fields)") { benchmark in
        let message = authorizationRequest()
        for _ in benchmark.scaledIterations {
            blackHole(try message.encoded(using: .contactless))
        }
    }

    Benchmark("ISO 8583 decode: 0100 authorization request (16 fields)") { (benchmark, bytes: [UInt8]) in
        for _ in benchmark.scaledIterations {
            blackHole(try ISO8583Message(decoding: bytes, using: .contactless))
        }
    } setup: {
        let bytes = try authorizationRequest().encoded(using: .contactless)
        guard try ISO8583Message(decoding: bytes, using: .contactless) == authorizationRequest() else {
            throw ISO8583Error(code: .invalidValue, message: "the request does not round-trip")
        }
        return bytes
    }
}

/// A gateway 0100 as the Gateway builds it (test card data).
func authorizationRequest() -> ISO8583Message {
    var message = ISO8583Message(mti: .authorizationRequest)
    message[.pan] = "4761739001010119"
    message[.processingCode] = "000000"
    message[.amount] = "000000001000"
    message[.transmissionDateTime] = "1121113000"
    message[.systemTraceAuditNumber] = "123456"
    message[.localTime] = "113000"
    message[.expirationDate] = "2512"
    message[.posEntryMode] = "071"
    message[.cardSequenceNumber] = "001"
    message[.track2] = "4761739001010119D25122010000000000000"
    message[.retrievalReferenceNumber] = "000000123456"
    message[.terminalID] = "TERM0001"
    message[.merchantID] = "MERCHANT0000001"
    message[.currencyCode] = "978"
    message[.pinBlock] = .binary([0x44, 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE])
    message.setICCData((0..<120).map { UInt8(truncatingIfNeeded: $0) })
    return message
}
