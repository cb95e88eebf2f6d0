import Benchmark
import EMV

/// ISO 9564 format 4 (AES), the PIN block the reader sends and the gateway or issuer opens.
///
/// Inputs are psec 1.3.0's docstring example: PIN 1234, PAN 1234567890123456, AES-128 key
/// 00112233445566778899AABBCCDDEEFF, which psec enciphers (with its random fill) to
/// E4BE5B623AF7E006AC319E5B93544564.
func pinBlockBenchmarks() {
    // Encode the PIN and PAN fields (8 random bytes from the system generator), then AES, XOR, AES.
    Benchmark("PIN block ISO 4 encipher (AES-128)") { (benchmark, input: PINBlockInput) in
        for _ in benchmark.scaledIterations {
            blackHole(try PINBlock.encipherISO4(pin: input.pin, pan: input.pan, key: input.key))
        }
    } setup: {
        let input = try PINBlockInput()
        let block = try PINBlock.encipherISO4(pin: input.pin, pan: input.pan, key: input.key)
        guard try PINBlock.decipherISO4(block, pan: input.pan, key: input.key) == input.pin else {
            throw BenchmarkFixtures.SetupError("a format 4 PIN block did not decipher to its PIN")
        }
        return input
    }

    // AES⁻¹, XOR with the PAN field, AES⁻¹, then decode and check the PIN field.
    Benchmark("PIN block ISO 4 decipher (AES-128)") { (benchmark, input: PINBlockInput) in
        for _ in benchmark.scaledIterations {
            blackHole(try PINBlock.decipherISO4(input.block, pan: input.pan, key: input.key))
        }
    } setup: {
        let input = try PINBlockInput()
        guard try PINBlock.decipherISO4(input.block, pan: input.pan, key: input.key) == input.pin else {
            throw BenchmarkFixtures.SetupError("psec's format 4 PIN block did not decipher to its PIN")
        }
        return input
    }
}

private struct PINBlockInput {
    let pin = "1234"
    let pan = "1234567890123456"
    let key: [UInt8]
    /// psec's enciphered block for `pin`, `pan` and `key`.
    let block: [UInt8]

    init() throws {
        key = try BenchmarkFixtures.bytes("00112233445566778899AABBCCDDEEFF")
        block = try BenchmarkFixtures.bytes("E4BE5B623AF7E006AC319E5B93544564")
    }
}
