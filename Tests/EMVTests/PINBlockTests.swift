import EMV
import Testing

private func hex(_ text: String) throws -> [UInt8] { try CryptoVectors.bytes(text) }

@Suite struct PINBlockTests {
    let vectors: CryptoVectors.PINBlockFile

    init() throws {
        vectors = try VectorFiles.load("PINBlock", as: CryptoVectors.PINBlockFile.self)
    }

    @Test func format0AgainstPsec() throws {
        #expect(vectors.iso0.count > 40)
        for vector in vectors.iso0 {
            #expect(try PINBlock.encodeISO0(pin: vector.pin, pan: vector.pan).hexString == vector.block)
            #expect(try PINBlock.decodeISO0(hex(vector.block), pan: vector.pan) == vector.pin)
        }
    }

    @Test func format2AgainstPsec() throws {
        for vector in vectors.iso2 {
            #expect(try PINBlock.encodeISO2(pin: vector.pin).hexString == vector.block)
            #expect(try PINBlock.decodeISO2(hex(vector.block)) == vector.pin)
        }
        #expect(try PINBlock.decodeISO2(hex("2C123456789012FF")) == "123456789012")  // psec docstring
    }

    @Test func format3DecodesPsecBlocks() throws {
        #expect(vectors.iso3.count > 40)
        for vector in vectors.iso3 {
            #expect(try PINBlock.decodeISO3(hex(vector.block), pan: vector.pan) == vector.pin)
        }
    }

    @Test func format3RandomFillDecodesBack() throws {
        var generator = SeededGenerator(seed: 9564)
        let pan = "5544332211009966"
        var blocks = Set<[UInt8]>()
        for length in 4...12 {
            let pin = String("918273645012".prefix(length))
            for _ in 0..<20 {
                let block = try PINBlock.encodeISO3(pin: pin, pan: pan, using: &generator)
                #expect(try PINBlock.decodeISO3(block, pan: pan) == pin)
                // The clear field: control 3, the length, the PIN, then fill digits A to F only.
                let clear = try zip(block, hex("0000" + "433221100996")).map { $0 ^ $1 }.hexString
                #expect(clear.hasPrefix("3" + String(length, radix: 16, uppercase: true) + pin))
                #expect(clear.dropFirst(2 + length).allSatisfy { "ABCDEF".contains($0) })
                blocks.insert(block)
            }
        }
        #expect(blocks.count > 170)  // the fill really varies
        #expect(try PINBlock.decodeISO3(PINBlock.encodeISO3(pin: "1234", pan: pan), pan: pan) == "1234")
    }

    @Test func format4AgainstPsecWithPinnedRandom() throws {
        #expect(vectors.iso4.count > 40)
        for vector in vectors.iso4 {
            let key = try hex(vector.key)
            #expect(try PINBlock.decipherISO4(hex(vector.block), pan: vector.pan, key: key) == vector.pin)
            guard !vector.random.isEmpty else { continue }
            let random = try hex(vector.random).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            var generator = CryptoVectors.ReplayGenerator(values: [random])
            #expect(try PINBlock.encodeISO4PINField(pin: vector.pin, using: &generator).hexString == vector.pin_field)
            #expect(try PINBlock.encodeISO4PANField(pan: vector.pan).hexString == vector.pan_field)
            #expect(try PINBlock.decodeISO4PINField(hex(vector.pin_field)) == vector.pin)
            generator = CryptoVectors.ReplayGenerator(values: [random])
            let block = try PINBlock.encipherISO4(pin: vector.pin, pan: vector.pan, key: key, using: &generator)
            #expect(block.hexString == vector.block)
        }
    }

    @Test func format4RandomFillDecodesBack() throws {
        let key = try hex("00112233445566778899AABBCCDDEEFF")
        var blocks = Set<[UInt8]>()
        for pan in ["1", "123456789012", "1234567890123456", "1234567890123456789"] {
            for _ in 0..<10 {
                let block = try PINBlock.encipherISO4(pin: "123456", pan: pan, key: key)
                #expect(try PINBlock.decipherISO4(block, pan: pan, key: key) == "123456")
                blocks.insert(block)
            }
        }
        #expect(blocks.count == 40)
    }

    /// Every edge input psec accepts we accept with the same result, and every one it rejects we reject.
    @Test func acceptsAndRejectsWhatPsecDoes() throws {
        #expect(vectors.checks.count > 600)
        for check in vectors.checks {
            let outcome: Result<String, CryptoError> = Result { () throws(CryptoError) -> String in try run(check) }
            switch outcome {
            case .success(let result):
                #expect(check.error == nil, "\(check.op) accepted what psec rejects: \(check)")
                #expect(result == check.result, "\(check.op): \(check)")
            case .failure(let error):
                #expect(check.error == true, "\(check.op) rejected what psec accepts (\(error)): \(check)")
            }
        }
    }

    private func run(_ check: CryptoVectors.PINBlockFile.Check) throws(CryptoError) -> String {
        let pin = check.pin ?? ""
        let pan = check.pan ?? ""
        let key = [UInt8](hex: check.key ?? "") ?? []
        let block = [UInt8](hex: check.block ?? "") ?? []
        switch check.op {
        case "encode_pinblock_iso_0":
            return try PINBlock.encodeISO0(pin: pin, pan: pan).hexString
        case "encode_pinblock_iso_2":
            return try PINBlock.encodeISO2(pin: pin).hexString
        case "encode_pinblock_iso_3":
            let block = try PINBlock.encodeISO3(pin: pin, pan: pan)
            return try PINBlock.decodeISO3(block, pan: pan) == pin ? "random" : "wrong"
        case "encipher_pinblock_iso_4":
            let block = try PINBlock.encipherISO4(pin: pin, pan: pan, key: key)
            return try PINBlock.decipherISO4(block, pan: pan, key: key) == pin ? "random" : "wrong"
        case "encode_pan_field_iso_4":
            return try PINBlock.encodeISO4PANField(pan: pan).hexString
        case "decode_pinblock_iso_0":
            return try PINBlock.decodeISO0(block, pan: pan)
        case "decode_pinblock_iso_2":
            return try PINBlock.decodeISO2(block)
        case "decode_pinblock_iso_3":
            return try PINBlock.decodeISO3(block, pan: pan)
        case "decode_pin_field_iso_4":
            return try PINBlock.decodeISO4PINField([UInt8](hex: check.pin_field ?? "") ?? [])
        case "decipher_pinblock_iso_4":
            return try PINBlock.decipherISO4(block, pan: pan, key: key)
        default:
            Issue.record("unknown op \(check.op)")
            return ""
        }
    }

    @Test func errorCodes() throws {
        let pan = "4000001234567899"
        let key = try hex("00112233445566778899AABBCCDDEEFF")
        #expect(throws: CryptoError.invalidPIN) { try PINBlock.encodeISO0(pin: "123", pan: pan) }
        #expect(throws: CryptoError.invalidPIN) { try PINBlock.encodeISO0(pin: "1234567890123", pan: pan) }
        #expect(throws: CryptoError.invalidPIN) { try PINBlock.encodeISO3(pin: "12a4", pan: pan) }
        #expect(throws: CryptoError.invalidPIN) { try PINBlock.encipherISO4(pin: "１２３４", pan: pan, key: key) }
        #expect(throws: CryptoError.invalidPAN) { try PINBlock.encodeISO0(pin: "1234", pan: "123456789012") }
        #expect(throws: CryptoError.invalidPAN) { try PINBlock.decodeISO3([UInt8](repeating: 0, count: 8), pan: "12X") }
        #expect(throws: CryptoError.invalidPAN) { try PINBlock.encodeISO4PANField(pan: "12345678901234567890") }
        #expect(throws: CryptoError.invalidPAN) { try PINBlock.encodeISO4PANField(pan: "") }
        #expect(throws: CryptoError.invalidKeyLength) { try PINBlock.encipherISO4(pin: "1234", pan: pan, key: [1]) }
        #expect(throws: CryptoError.invalidKeyLength) {
            try PINBlock.decipherISO4([UInt8](repeating: 0, count: 16), pan: pan, key: [UInt8](repeating: 0, count: 8))
        }
        #expect(throws: CryptoError.invalidPINBlock) { try PINBlock.decodeISO0([0, 1, 2], pan: pan) }
        #expect(throws: CryptoError.invalidPINBlock) { try PINBlock.decodeISO2([UInt8](repeating: 0, count: 9)) }
        #expect(throws: CryptoError.invalidPINBlock) {
            try PINBlock.decodeISO4PINField([UInt8](repeating: 0, count: 8))
        }
        #expect(throws: CryptoError.invalidPINBlock) {
            try PINBlock.decipherISO4([UInt8](repeating: 0, count: 32), pan: pan, key: key)
        }
        #expect(throws: CryptoError.invalidPINBlockFormat) { try PINBlock.decodeISO2(hex("341234FFFFFFFFFF")) }
        #expect(throws: CryptoError.invalidPIN) { try PINBlock.decodeISO2(hex("2D1234FFFFFFFFFF")) }
        #expect(throws: CryptoError.invalidPIN) { try PINBlock.decodeISO2(hex("23123FFFFFFFFFFF")) }
        #expect(throws: CryptoError.invalidPIN) { try PINBlock.decodeISO2(hex("24123AFFFFFFFFFF")) }
        #expect(throws: CryptoError.invalidPINBlockFill) { try PINBlock.decodeISO2(hex("241234FFFFFFFFFE")) }
        #expect(throws: CryptoError.invalidPINBlockFill) {
            try PINBlock.decodeISO4PINField(hex("441234AAAAAAAAAB0000000000000000"))
        }
        #expect(try PINBlock.decodeISO4PINField(hex("441234AAAAAAAAAA548ED7FD65495950")) == "1234")  // psec docstring
    }

    @Test func errorsNeverCarryPINOrPAN() throws {
        let pin = "987654"
        let pan = "4000001234567899"
        let key = try hex("00112233445566778899AABBCCDDEEFF")
        let block = try PINBlock.encodeISO0(pin: pin, pan: pan)
        let attempts: [() throws -> Void] = [
            { _ = try PINBlock.decodeISO3(block, pan: pan) },
            { _ = try PINBlock.decodeISO0(block, pan: "4111111111111111") },
            { _ = try PINBlock.encodeISO0(pin: pin + "1234567", pan: pan) },
            { _ = try PINBlock.encodeISO0(pin: pin, pan: "X" + pan) },
            { _ = try PINBlock.decipherISO4(block + block, pan: pan, key: key) },
            { _ = try PINBlock.decipherISO4(key, pan: pan, key: key) },
        ]
        for attempt in attempts {
            do {
                try attempt()
                Issue.record("expected an error")
            } catch let error as CryptoError {
                let text = "\(error) \(error.message)"
                #expect(!text.contains(pin) && !text.contains(pan) && !text.contains("1234567899"))
                #expect(!text.contains(block.hexString) && !text.contains(key.hexString))
            } catch {
                Issue.record("unexpected error type \(error)")
            }
        }
    }
}
