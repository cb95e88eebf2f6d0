import CardEmulator
import EMV
import Foundation
import GatewayAPI
import Testing

/// The plain-JSON readers and writer against JSONDecoder and JSONEncoder, which stay the definition: whatever the
/// fast path accepts must decode to what JSONDecoder makes of the same bytes, what it writes must be JSONEncoder's
/// bytes, and what it refuses falls back to them (so it may refuse, never differ).
@Suite struct PlainJSONTests {
    static let apiDecoder = JSONDecoder.gatewayAPI
    static var cardDataEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
    static var cardDataDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    // MARK: Requests

    @Test func readsWhatSDKsSendAsJSONDecoderDoes() throws {
        var random = SeededRandomNumberGenerator(seed: 5)
        for _ in 0..<500 {
            let request = Self.request(&random)
            let json = try JSONEncoder.gatewayAPI.encode(request)
            let plain = try #require(
                CreatePaymentRequest.plainDecoded(from: json), "\(String(decoding: json, as: UTF8.self))")
            #expect(plain == (try Self.apiDecoder.decode(CreatePaymentRequest.self, from: json)))
            #expect(plain == request)
        }
    }

    @Test func neverDiffersFromJSONDecoderOnVariants() throws {
        var random = SeededRandomNumberGenerator(seed: 6)
        let base = String(decoding: try JSONEncoder.gatewayAPI.encode(Self.request(&random)), as: UTF8.self)
        let variants: [String] =
            [
                " \n" + base + "\t ", base + "x", base + "{}", String(base.dropLast()),
                base.replacingOccurrences(of: "\"amount\":", with: "\"amount\" : "),
                base.replacingOccurrences(of: "{\"amount\":", with: "{\"amount\":1,\"amount\":"),
                base.replacingOccurrences(of: "{\"amount\":", with: "{\"unknown\":1,\"amount\":"),
                base.replacingOccurrences(of: "\"EUR\"", with: "\"E\\u0055R\""),
                base.replacingOccurrences(of: "\"EUR\"", with: "\"EÜR\""),
                base.replacingOccurrences(of: "\"EUR\"", with: "null"),
                base.replacingOccurrences(of: "\"keyId\":", with: "\"keyId\":null,\"x\":"),
            ]
            + [
                "1.0", "1e2", "1E2", "-0", "01", "-", "9223372036854775807", "9223372036854775808",
                "-9223372036854775808",
                "-9223372036854775809", "null", "\"1\"", "true", "[1]", "{}", "12 ", "-12",
            ].map { amount in
                base.replacingOccurrences(
                    of: #""amount":\d+"#, with: "\"amount\":\(amount)", options: .regularExpression)
            }
            + ["\"purchase\"", "\"verification\"", "\"other\"", "null", "1"].map { kind in
                base.replacingOccurrences(of: "{\"amount\":", with: "{\"kind\":\(kind),\"amount\":")
            }
        var plainCount = 0
        for variant in variants {
            if try Self.checkRequest(Data(variant.utf8)) { plainCount += 1 }
        }
        // Taken: the two with added whitespace, four in-range integers, three kinds.
        #expect(plainCount == 9)
    }

    @Test func neverDiffersFromJSONDecoderOnMutatedBytes() throws {
        var random = SeededRandomNumberGenerator(seed: 7)
        let alphabet = Array(#"{}[]":,. -+0123456789eEnul\/AZaz="#.utf8) + [0x80, 0xC3, 0x09, 0x00]
        for _ in 0..<3_000 {
            var bytes = Array(try JSONEncoder.gatewayAPI.encode(Self.request(&random)))
            for _ in 0..<Int(random.next() % 3 + 1) {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
                default: bytes[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                }
            }
            _ = try Self.checkRequest(Data(bytes))
        }
    }

    /// Whether the fast path took `data`; fails the test if it took it differently from JSONDecoder.
    static func checkRequest(_ data: Data) throws -> Bool {
        let codable = try? apiDecoder.decode(CreatePaymentRequest.self, from: data)
        guard let plain = CreatePaymentRequest.plainDecoded(from: data) else { return false }
        #expect(plain == codable, "\(String(decoding: data, as: UTF8.self))")
        return true
    }

    // MARK: Card data payloads

    @Test func readsSealedPayloadsAsJSONDecoderDoes() throws {
        var random = SeededRandomNumberGenerator(seed: 8)
        var plainCount = 0
        for index in 0..<1_000 {
            var payload = try Self.payload(&random)
            if index % 10 == 0 { payload = payload.with(pinBlock: (0..<16).map { _ in UInt8(random.next() % 256) }) }
            let json = try Self.cardDataEncoder.encode(payload)
            let plain = try #require(CardDataPayload.plainDecoded(from: json))
            #expect(plain == (try Self.cardDataDecoder.decode(CardDataPayload.self, from: json)))
            #expect(plain == payload)
            // Mutated copies: refused, or read exactly as JSONDecoder reads them.
            var bytes = Array(json)
            let at = Int(random.next() % UInt64(bytes.count))
            bytes[at] = Array(#"0.e-9,"x}n"#.utf8)[Int(random.next() % 10)]
            let codable = try? Self.cardDataDecoder.decode(CardDataPayload.self, from: Data(bytes))
            if let mutated = CardDataPayload.plainDecoded(from: Data(bytes)) {
                plainCount += 1
                #expect(mutated == codable, "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(plainCount > 0)
    }

    @Test(arguments: [
        "1795003600", "1795003600.5", "1795003600.123456789", "1.7950036e9", "-1", "0", "1e400", "-0", "1E-7",
        "0.30000000000000004", "17950036001234567890", "01795003600", "-01", "00.5",
    ])
    func readsCreatedAtAsJSONDecoderDoes(seconds: String) throws {
        var random = SeededRandomNumberGenerator(seed: 9)
        let json = String(decoding: try Self.cardDataEncoder.encode(try Self.payload(&random)), as: UTF8.self)
            .replacingOccurrences(
                of: #""createdAt":[^,]+"#, with: "\"createdAt\":\(seconds)", options: .regularExpression)
        let codable = try? Self.cardDataDecoder.decode(CardDataPayload.self, from: Data(json.utf8))
        let plain = CardDataPayload.plainDecoded(from: Data(json.utf8))
        #expect(plain == codable)
    }

    // MARK: Payments

    @Test func writesPaymentsAsJSONEncoderDoes() throws {
        var random = SeededRandomNumberGenerator(seed: 10)
        var plainCount = 0
        for index in 0..<2_000 {
            let payment = Self.payment(&random, awkwardStrings: index % 4 == 3)
            let expected = try JSONEncoder.gatewayAPI.encode(payment)
            guard let plain = payment.plainJSON() else {
                // Refused only for a string needing escapes or a date before 1970.
                let dates = [payment.createdAt, payment.updatedAt] + (payment.pinRequest.map { [$0.expiresAt] } ?? [])
                #expect(index % 4 == 3 || dates.contains { $0.timeIntervalSince1970 < 0 })
                continue
            }
            plainCount += 1
            #expect(
                plain == expected,
                "\(String(decoding: plain, as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))")
        }
        #expect(plainCount > 700)
    }

    // MARK: Generators

    static func request(_ random: inout SeededRandomNumberGenerator) -> CreatePaymentRequest {
        let sealed = SealedCardData(
            keyId: "psp-\(random.next() % 1000)", readId: UUID(), deviceId: "device_\(random.next() % 100_000)",
            merchantId: "acct_\(random.next())",
            encapsulatedKey: Data((0..<65).map { _ in UInt8(random.next() % 256) }),
            ciphertext: Data((0..<Int(random.next() % 600)).map { _ in UInt8(random.next() % 256) }))
        let amounts = [0, 1, 1_000, 999_999_999_999, -5, Int.max, Int.min]
        return CreatePaymentRequest(
            cardData: sealed, amount: amounts[Int(random.next() % UInt64(amounts.count))],
            currency: ["EUR", "USD", "JPY", "xx/y"][Int(random.next() % 4)],
            kind: [nil, .purchase, .verification][Int(random.next() % 3)],
            captureMethod: [nil, .automatic, .manual][Int(random.next() % 3)],
            verificationReason: random.next() % 2 == 0 ? nil : VerificationReason.allCases.randomElement(using: &random)
        )
    }

    static func payload(_ random: inout SeededRandomNumberGenerator) throws -> CardDataPayload {
        let pans = ["4761739001010119", "5413330089020011", "374245455400126"]
        let pan = try PAN(pans[Int(random.next() % UInt64(pans.count))])
        let expiry = try ExpiryDate(year: 2025 + Int(random.next() % 10), month: 1 + Int(random.next() % 12))
        let track2 =
            random.next() % 3 == 0
            ? nil : try Track2EquivalentData(pan: pan, expiry: expiry, serviceCode: "201", discretionaryData: "0001")
        let seconds = Double(random.next() % 4_000_000_000) + Double(random.next() % 1_000) / 1_000
        return CardDataPayload(
            readId: UUID(), deviceId: "device_\(random.next() % 1000)", merchantId: "merchant_\(random.next() % 1000)",
            createdAt: Date(timeIntervalSince1970: seconds),
            authorization: CardAuthorizationData(
                mode: random.next() % 4 == 0 ? .magStripe : .emv,
                iccData: (0..<Int(random.next() % 200)).map { _ in UInt8(random.next() % 256) }, pan: pan,
                panSequenceNumber: random.next() % 3 == 0 ? nil : UInt8(random.next() % 256),
                expiry: random.next() % 3 == 0 ? nil : expiry, track2: track2))
    }

    static func payment(_ random: inout SeededRandomNumberGenerator, awkwardStrings: Bool) -> Payment {
        func text(_ plain: String) -> String {
            awkwardStrings && random.next() % 3 == 0
                ? plain + ["\"", "\\", "\n", "é", "\u{7F}", "/"][Int(random.next() % 6)] : plain
        }
        func maybe<T>(_ value: T) -> T? { random.next() % 3 == 0 ? nil : value }
        func date() -> Date {
            switch random.next() % 5 {
            case 0: Date(timeIntervalSince1970: Double(random.next() % 253_402_300_800))
            case 1: Date(timeIntervalSince1970: -Double(random.next() % 1_000_000))
            default: Date(timeIntervalSince1970: 1_795_003_600 + Double(random.next() % 10_000_000) / 997)
            }
        }
        return Payment(
            id: text("pay_\(random.next())"), merchantId: text("acct_\(random.next() % 1000)"),
            deviceId: maybe(text("device_\(random.next() % 1000)")), readId: maybe(UUID()),
            kind: random.next() % 2 == 0 ? .purchase : .verification,
            status: PaymentStatus.allCases.randomElement(using: &random) ?? .succeeded,
            captureMethod: random.next() % 2 == 0 ? .automatic : .manual, amount: Int(random.next() % 1_000_000) - 10,
            currency: text("EUR"), capturedAmount: Int(random.next() % 1_000),
            refundedAmount: Int(random.next() % 1_000),
            card: maybe(PaymentCard(bin: text("476173"), last4: "0119", scheme: "visa", entryMode: "contactlessChip")),
            issuer: maybe(
                IssuerOutcome(
                    responseCode: "00", approvalCode: maybe("A1B2C3"), authenticationData: maybe(text("ABCD")))),
            failureCode: maybe(text("doNotHonour")),
            pinRequest: maybe(PINRequest(pinToken: text("pin_\(random.next())"), expiresAt: date())),
            createdAt: date(), updatedAt: date())
    }
}

extension CardDataPayload {
    fileprivate func with(pinBlock: [UInt8]) -> CardDataPayload {
        CardDataPayload(
            readId: readId, deviceId: deviceId, merchantId: merchantId, createdAt: createdAt,
            authorization: authorization,
            pinBlock: pinBlock)
    }
}
