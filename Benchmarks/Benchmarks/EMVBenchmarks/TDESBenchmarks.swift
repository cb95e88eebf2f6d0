import Benchmark
import EMV

/// Raw TDES speed, the engine under every cryptogram, MAC and key derivation; `tap bench tdes` compares the same
/// operation with OpenSSL's in one run.
func tdesBenchmarks() {
    // Three-key TDES, ECB, 8 KiB per operation (1024 blocks), like `openssl speed -evp des-ede3 -bytes 8192`.
    // Bytes per second = throughput × 8192.
    Benchmark("TDES-ECB encrypt 8 KiB (3-key)") { (benchmark, input: TDESInput) in
        for _ in benchmark.scaledIterations {
            blackHole(try input.key.encryptECB(input.data))
        }
    } setup: {
        let key = try TDESKey(BenchmarkFixtures.bytes("0123456789ABCDEFFEDCBA987654321089ABCDEF01234567"))
        let data = [UInt8](repeating: 0x5A, count: 8192)
        // Known answer from OpenSSL: `openssl enc -des-ede3 -K 0123…4567 -nopad` of 5A5A5A5A5A5A5A5A.
        try BenchmarkFixtures.expect(Array(try key.encryptECB(data).prefix(8)), "6EE1E69EA4CE45E1", "TDES block")
        return TDESInput(key: key, data: data)
    }
}

/// A key and the 8 KiB it encrypts.
private struct TDESInput {
    var key: TDESKey
    var data: [UInt8]
}
