import ApplePay
import Benchmark
import Foundation
import SwiftASN1
import X509

/// Verifying and decrypting an Apple Pay token on one core, against the floor of its own cryptography measured in
/// the same run (issue 6 part 8: at least 60 % of the floor's throughput).
///
/// The floor is one ECDH, one ECDSA P-256 verification and one AES-GCM open on the token's own sizes (see
/// ``TokenCryptography``); verify + decrypt adds the JSON and BER parsing, the digest, the chain (cached per leaf and
/// intermediate after the first token), the KDF and the payload decoding. Replay checks are off so one token can be
/// decrypted repeatedly. Run from the repository root:
/// `cd Benchmarks && swift package --disable-sandbox benchmark --target ApplePayBenchmarks --no-progress`.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        maxDuration: .seconds(3),
        maxIterations: 100_000
    )
    for source in TokenSource.allCases {
        Benchmark("Apple Pay \(source.title): verify + decrypt") { (benchmark, token: BenchmarkToken) async throws in
            for _ in benchmark.scaledIterations {
                blackHole(try await token.verifyAndDecrypt())
            }
        } setup: {
            try await BenchmarkToken(source)
        }

        // The same work without the replay store's `await`: a synchronous loop on one thread, like the floor's.
        Benchmark("Apple Pay \(source.title): verify + decrypt, synchronous") { (benchmark, token: BenchmarkToken) in
            for _ in benchmark.scaledIterations {
                blackHole(try token.decryptor.decryptWithoutReplayCheck(token.paymentData))
            }
        } setup: {
            try await BenchmarkToken(source)
        }

        Benchmark("Apple Pay \(source.title): its cryptography alone") { (benchmark, crypto: TokenCryptography) in
            for _ in benchmark.scaledIterations {
                blackHole(try crypto.run())
            }
        } setup: {
            try await TokenCryptography(BenchmarkToken(source))
        }
    }

    // Part of the gap between the two: the verifier parses the leaf and intermediate from DER on every token,
    // before its chain cache lookup.
    Benchmark("Apple Pay: parse the signature's two certificates from DER") { (benchmark, der: [[UInt8]]) in
        for _ in benchmark.scaledIterations {
            for certificate in der { blackHole(try Certificate(derEncoded: certificate)) }
        }
    } setup: {
        let pki = try TestPaymentPKI(validity: DateInterval(start: Date(), duration: 86_400))
        return try [pki.leaf, pki.intermediate].map { certificate in
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return serializer.serializedBytes
        }
    }
}
