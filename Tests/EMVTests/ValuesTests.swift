import EMV
import Foundation
import Testing

private func hex(_ text: String) -> [UInt8] {
    guard let bytes = [UInt8](hex: text.filter { $0 != " " }) else {
        Issue.record("bad hex in test: \(text)")
        return []
    }
    return bytes
}

/// Runs `body`, expects a `ValueError`, and returns it for code and offset checks.
private func valueError(_ body: () throws -> Void) -> ValueError? {
    do {
        try body()
        Issue.record("expected a ValueError")
    } catch let error as ValueError {
        return error
    } catch {
        Issue.record("expected a ValueError, got \(error)")
    }
    return nil
}

private func decimal(_ text: String) -> Decimal {
    guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
        Issue.record("bad decimal in test: \(text)")
        return 0
    }
    return value
}

@Suite struct CurrencyAndCountryTests {
    @Test(arguments: [
        ("EUR", 978, 2 as Int?), ("USD", 840, 2), ("JPY", 392, 0), ("BHD", 48, 3), ("BRL", 986, 2), ("KWD", 414, 3),
        ("GBP", 826, 2), ("CHF", 756, 2), ("ISK", 352, 0), ("KRW", 410, 0), ("CLF", 990, 4), ("UYW", 927, 4),
        ("TND", 788, 3), ("XAU", 959, nil), ("XTS", 963, nil), ("TRY", 949, 2),
    ])
    func iso4217(_ alphabetic: String, _ numeric: Int, _ minorUnits: Int?) throws {
        let currency = try #require(Currency(alphabeticCode: alphabetic))
        #expect(currency.numericCode == numeric)
        #expect(currency.minorUnits == minorUnits)
        #expect(currency.exponent == (minorUnits ?? 0))
        #expect(Currency(numericCode: numeric) == currency)
        #expect(Currency(alphabeticCode: alphabetic.lowercased()) == currency)
        #expect("\(currency)" == alphabetic)
    }

    @Test func staticMembersAndTable() {
        #expect(Currency.eur.numericCode == 978)
        #expect(Currency.jpy.exponent == 0)
        #expect(Currency.bhd.exponent == 3)
        #expect(Currency.`try`.alphabeticCode == "TRY")
        // ISO 4217 list one published 2026-01-01: 178 currency codes (funds and metals included).
        #expect(Currency.allCases.count == 178)
        #expect(Currency.tablePublished == "2026-01-01")
        #expect(Set(Currency.allCases.map(\.numericCode)).count == 178)
        #expect(Currency(alphabeticCode: "BGN") == nil)  // withdrawn when Bulgaria joined the euro
        #expect(Currency(numericCode: 0) == nil)
    }

    /// Debian's iso-codes, an independent transcription of ISO 4217, must agree on every numeric code both
    /// lists carry (it also keeps withdrawn codes, and may lag new ones, so only the intersection is compared).
    @Test func agreesWithDebianISOCodes() throws {
        let path = "/usr/share/iso-codes/json/iso_4217.json"
        guard let data = FileManager.default.contents(atPath: path) else { return }
        struct File: Decodable {
            struct Entry: Decodable {
                var alpha_3: String
                var numeric: String
            }
            var entries: [Entry]
            enum CodingKeys: String, CodingKey { case entries = "4217" }
        }
        let entries = try JSONDecoder().decode(File.self, from: data).entries
        var compared = 0
        for entry in entries {
            guard let ours = Currency(alphabeticCode: entry.alpha_3) else { continue }
            #expect(ours.numericCode == Int(entry.numeric), "\(entry.alpha_3)")
            compared += 1
        }
        #expect(compared > 170)
    }

    @Test func emvCurrencyCode() throws {
        #expect(try Currency(emvCode: hex("0978")) == .eur)
        #expect(try Currency(emvCode: hex("0048")) == .bhd)
        #expect(Currency.usd.emvCode == hex("0840"))
        #expect(Currency.bhd.emvCode == hex("0048"))
        #expect(throws: ValueError.unknownCurrency) { try Currency(emvCode: hex("0000")) }
        #expect(throws: ValueError.invalidLength) { try Currency(emvCode: hex("000978")) }
        let error = valueError { _ = try Currency(emvCode: hex("09A8")) }
        #expect(error == ValueError.invalidDigit)
        #expect(error?.offset == 1)
        #expect(throws: ValueError.invalidDigit) { try Currency(emvCode: hex("1978")) }
    }

    @Test(arguments: [
        ("DE", "DEU", 276), ("US", "USA", 840), ("GB", "GBR", 826), ("JP", "JPN", 392), ("BR", "BRA", 76),
        ("BH", "BHR", 48), ("FR", "FRA", 250), ("IN", "IND", 356), ("DO", "DOM", 214), ("AX", "ALA", 248),
    ])
    func iso3166(_ alpha2: String, _ alpha3: String, _ numeric: Int) throws {
        let country = try #require(Country(alpha2: alpha2))
        #expect(country.alpha3 == alpha3)
        #expect(country.numericCode == numeric)
        #expect(Country(alpha3: alpha3.lowercased()) == country)
        #expect(Country(numericCode: numeric) == country)
        #expect(try Country(emvCode: country.emvCode) == country)
    }

    @Test func countryTable() throws {
        #expect(Country.allCases.count == 249)
        #expect(Country.deu.name == "Germany")
        #expect(try Country(emvCode: hex("0826")) == .gbr)
        #expect(Country.usa.emvCode == hex("0840"))
        #expect(throws: ValueError.unknownCountry) { try Country(emvCode: hex("0999")) }
        #expect(Country(alpha2: "XK") == nil)
    }
}

@Suite struct AmountTests {
    @Test(arguments: [
        ("000000001234", 1234),
        ("000000000000", 0),
        ("000000000001", 1),
        ("999999999999", 999_999_999_999),
        ("000001000000", 1_000_000),
    ])
    func n12BothWays(_ encoded: String, _ minorUnits: Int) throws {
        let amount = try Amount(n12: hex(encoded), currency: .eur)
        #expect(amount.minorUnits == minorUnits)
        #expect(try amount.n12() == hex(encoded))
    }

    @Test func n12Errors() {
        let digit = valueError { _ = try Amount(n12: hex("00000000123A"), currency: .eur) }
        #expect(digit == ValueError.invalidDigit)
        #expect(digit?.offset == 5)
        let high = valueError { _ = try Amount(n12: hex("F00000000000"), currency: .eur) }
        #expect(high?.offset == 0)
        #expect(throws: ValueError.invalidLength) { try Amount(n12: hex("0000001234"), currency: .eur) }
        #expect(throws: ValueError.amountOutOfRange) { try Amount(minorUnits: 1_000_000_000_000, currency: .eur).n12() }
        #expect(throws: ValueError.amountOutOfRange) { try Amount(minorUnits: -1, currency: .eur).n12() }
    }

    @Test(arguments: [
        ("12.34", Currency.eur, 1234, "12.34 EUR"),
        ("0.05", .usd, 5, "0.05 USD"),
        ("1234", .jpy, 1234, "1234 JPY"),
        ("1.234", .bhd, 1234, "1.234 BHD"),
        ("0.001", .bhd, 1, "0.001 BHD"),
        ("12.3", .eur, 1230, "12.30 EUR"),
        ("100", .eur, 10000, "100.00 EUR"),
        ("-12.34", .eur, -1234, "-12.34 EUR"),
        ("0.0001", .clf, 1, "0.0001 CLF"),
        ("5", .xau, 5, "5 XAU"),
    ])
    func decimalsAndFormatting(_ text: String, _ currency: Currency, _ minorUnits: Int, _ formatted: String) throws {
        let amount = try Amount(decimal(text), currency: currency)
        #expect(amount.minorUnits == minorUnits)
        #expect(amount.formatted == formatted)
        #expect("\(amount)" == formatted)
        #expect(amount.decimalValue == decimal(text))
        #expect(try Amount(amount.decimalValue, currency: currency) == amount)
    }

    @Test func exponentIsEnforced() {
        #expect(throws: ValueError.tooManyFractionDigits) { try Amount(decimal("12.5"), currency: .jpy) }
        #expect(throws: ValueError.tooManyFractionDigits) { try Amount(decimal("12.345"), currency: .eur) }
        #expect(throws: ValueError.tooManyFractionDigits) { try Amount(decimal("1.2345"), currency: .bhd) }
        #expect(throws: ValueError.amountOutOfRange) { try Amount(decimal("1e30"), currency: .eur) }
        #expect(throws: ValueError.amountOutOfRange) { try Amount(Decimal.nan, currency: .eur) }
        // Trailing zeros beyond the exponent are not extra precision.
        #expect((try? Amount(decimal("12.3400"), currency: .eur))?.minorUnits == 1234)
    }
}

@Suite struct PANTests {
    /// Published test card numbers (card schemes' and processors' test PANs), all Luhn-valid.
    @Test(arguments: [
        "4111111111111111", "4761739001010119", "5555555555554444", "5413330089010434", "378282246310005",
        "6011111111111117", "3530111333300000", "30569309025904", "4000056655665556", "6759649826438453",
    ])
    func luhnValid(_ digits: String) throws {
        #expect(PAN.isLuhnValid(digits))
        let pan = try PAN(digits)
        #expect(pan.isLuhnValid)
        #expect(pan.digits == digits)
        #expect(PAN.luhnCheckDigit(for: digits.dropLast()) == Int(String(digits.last ?? "x")))
    }

    @Test(arguments: ["4111111111111112", "4761739001010118", "5555555555554445", "378282246310006"])
    func luhnInvalid(_ digits: String) throws {
        #expect(!PAN.isLuhnValid(digits))
        let error = valueError { _ = try PAN(digits) }
        #expect(error == ValueError.luhnCheckFailed)
        #expect(error.map { !"\($0)".contains(digits) && !$0.message.contains(digits.suffix(8)) } ?? false)
        // Opting out keeps the number and reports the failure.
        let unchecked = try PAN(digits, requireLuhn: false)
        #expect(!unchecked.isLuhnValid)
    }

    @Test func luhnTextbookExample() {
        // The worked example of the Luhn algorithm: payload 7992739871 has check digit 3.
        #expect(PAN.luhnCheckDigit(for: "7992739871") == 3)
        #expect(PAN.isLuhnValid("79927398713"))
        #expect(!PAN.isLuhnValid("79927398710"))
        #expect(!PAN.isLuhnValid(""))
        #expect(!PAN.isLuhnValid("4111-1111"))
        #expect(PAN.luhnCheckDigit(for: "") == nil)
    }

    @Test(arguments: [
        ("4761739001010119", "476173******0119"),
        ("378282246310005", "378282*****0005"),
        ("6759649826438453", "675964******8453"),
        ("4000000000000000006", "400000*********0006"),
        ("400000000006", "400000**0006"),
    ])
    func masking(_ digits: String, _ masked: String) throws {
        let pan = try PAN(digits, requireLuhn: false)
        #expect(pan.masked == masked)
        #expect(pan.issuerIdentificationNumber == String(digits.prefix(6)))
        #expect(pan.lastFour == String(digits.suffix(4)))
    }

    @Test func neverLeaks() throws {
        let digits = "4761739001010119"
        let pan = try PAN(digits)
        let middle = String(digits.dropFirst(6).dropLast(4))
        var dumped = ""
        dump(pan, to: &dumped)
        let optional: PAN? = pan
        for text in [
            "\(pan)", String(describing: pan), String(reflecting: pan), dumped, "\([pan])",
            String(describing: optional),
        ] {
            #expect(!text.contains(digits), "\(text)")
            #expect(!text.contains(middle), "\(text)")
            #expect(text.contains("476173******0119"), "\(text)")
        }
    }

    @Test func lengthAndDigitErrors() {
        #expect(throws: ValueError.invalidLength) { try PAN("41111111111") }
        #expect(throws: ValueError.invalidLength) { try PAN("41111111111111111111", requireLuhn: false) }
        let error = valueError { _ = try PAN("4111 1111 1111 1111") }
        #expect(error == ValueError.invalidDigit)
        #expect(error?.offset == 4)
    }

    @Test func bcdForTag5A() throws {
        let pan = try PAN(bcd: hex("4761739001010119"))
        #expect(pan.digits == "4761739001010119")
        #expect(pan.bcd == hex("4761739001010119"))
        let amex = try PAN("378282246310005")
        #expect(amex.bcd == hex("378282246310005F"))
        #expect(try PAN(bcd: hex("378282246310005F")) == amex)

        let padding = valueError { _ = try PAN(bcd: hex("3782F2246310005F")) }
        #expect(padding == ValueError.invalidPadding)
        #expect(padding?.offset == 2)
        // cn allows a run of trailing F nibbles, not just one.
        #expect(try PAN(bcd: hex("476173900101011FFF"), requireLuhn: false).length == 15)
        let digit = valueError { _ = try PAN(bcd: hex("47617390010101A9")) }
        #expect(digit == ValueError.invalidDigit)
        #expect(digit?.offset == 7)
    }
}

@Suite struct Track2Tests {
    /// Visa's published test card 4761 7390 0101 0119, as its chip returns tag 57.
    static let visaTestCard = "4761739001010119D22122011143804400000F"

    @Test func parsesVisaTestCard() throws {
        let track2 = try Track2EquivalentData(bytes: hex(Self.visaTestCard))
        #expect(track2.pan.digits == "4761739001010119")
        #expect(track2.expiry == (try ExpiryDate(year: 2022, month: 12)))
        #expect(track2.serviceCode == "201")
        #expect(track2.discretionaryData == "1143804400000")
        #expect(track2.bytes == hex(Self.visaTestCard))
        #expect(track2.bytes.count == 19)
    }

    @Test func buildsEvenLengthWithoutPadding() throws {
        let pan = try PAN("5413330089010434")
        let track2 = try Track2EquivalentData(
            pan: pan, expiry: ExpiryDate(year: 2025, month: 12), serviceCode: "201", discretionaryData: "00000000000000"
        )
        // 16 + 1 + 4 + 3 + 14 = 38 nibbles: no F.
        #expect(track2.bytes == hex("5413330089010434D251220100000000000000"))
        #expect(try Track2EquivalentData(bytes: track2.bytes) == track2)
        let short = try Track2EquivalentData(pan: pan, expiry: ExpiryDate(year: 2025, month: 12), serviceCode: "201")
        #expect(short.bytes == hex("5413330089010434D2512201"))
        let odd = try Track2EquivalentData(
            pan: try PAN("378282246310005"), expiry: ExpiryDate(year: 2030, month: 1), serviceCode: "101")
        #expect(odd.bytes == hex("378282246310005D3001101F"))
        #expect(try Track2EquivalentData(bytes: odd.bytes) == odd)
    }

    @Test func neverLeaks() throws {
        let track2 = try Track2EquivalentData(bytes: hex(Self.visaTestCard))
        var dumped = ""
        dump(track2, to: &dumped)
        for text in ["\(track2)", String(reflecting: track2), dumped] {
            #expect(!text.contains("4761739001010119"), "\(text)")
            #expect(!text.contains("1143804400000"), "\(text)")
            #expect(!text.contains("2212"), "\(text)")
            #expect(text.contains("476173******0119"), "\(text)")
        }
    }

    @Test(arguments: [
        ("4761739001010119122122011143804400000F", ValueError.missingSeparator, 19 as Int?),  // D replaced by 1
        ("4761739001010119D2212201114380440A000F", .invalidDigit, 16),
        ("4761739001010119D221220111438F4400000F", .invalidPadding, 14),
        ("4761739001010119D221220F", .invalidLength, 12),  // expiry, then only 2 digits of service code
        ("4761739001010119D22132011143804400000F", .invalidDate, nil),  // month 13
        ("4761739001010118D22122011143804400000F", .luhnCheckFailed, nil),
        ("47617390D22122011143804400000F", .invalidLength, nil),  // 8-digit PAN
        ("4761739001010119D22122011143804400000000", .invalidLength, 19),  // 20 bytes
    ])
    func malformed(_ encoded: String, _ expected: ValueError, _ offset: Int?) {
        let error = valueError { _ = try Track2EquivalentData(bytes: hex(encoded)) }
        #expect(error == expected)
        if let offset { #expect(error?.offset == offset) }
        let text = error.map { "\($0)" } ?? ""
        #expect(!text.contains("47617390"))
        #expect(!text.contains("1143804400000"))
    }

    @Test func fieldValidation() throws {
        let pan = try PAN("4761739001010119")
        let expiry = try ExpiryDate(year: 2022, month: 12)
        #expect(throws: ValueError.invalidLength) {
            try Track2EquivalentData(pan: pan, expiry: expiry, serviceCode: "20")
        }
        #expect(throws: ValueError.invalidDigit) {
            try Track2EquivalentData(pan: pan, expiry: expiry, serviceCode: "2O1")
        }
        #expect(throws: ValueError.invalidLength) {
            try Track2EquivalentData(
                pan: pan, expiry: expiry, serviceCode: "201", discretionaryData: String(repeating: "0", count: 15))
        }
    }
}

@Suite struct DateTests {
    @Test(arguments: [
        ("251231", 2025, 12, 31), ("491231", 2049, 12, 31), ("500101", 1950, 1, 1), ("990615", 1999, 6, 15),
        ("000229", 2000, 2, 29), ("240229", 2024, 2, 29), ("210501", 2021, 5, 1),
    ])
    func n6(_ encoded: String, _ year: Int, _ month: Int, _ day: Int) throws {
        let date = try EMVDate(n6: hex(encoded))
        #expect(date == (try EMVDate(year: year, month: month, day: day)))
        #expect(date.n6 == hex(encoded))
    }

    @Test(arguments: ["230229", "250230", "251301", "250000", "250431", "251200"])
    func invalidDates(_ encoded: String) {
        #expect(throws: ValueError.invalidDate) { try EMVDate(n6: hex(encoded)) }
    }

    @Test func formatErrors() {
        let digit = valueError { _ = try EMVDate(n6: hex("25123A")) }
        #expect(digit == ValueError.invalidDigit)
        #expect(digit?.offset == 2)
        #expect(throws: ValueError.invalidLength) { try EMVDate(n6: hex("2512")) }
        #expect(throws: ValueError.invalidDate) { try EMVDate(year: 2050, month: 1, day: 1) }
        #expect(throws: ValueError.invalidDate) { try ExpiryDate(year: 2025, month: 0) }
        #expect(throws: ValueError.invalidLength) { try ExpiryDate(n4: hex("221201")) }
    }

    @Test func centuryRuleAndOrder() throws {
        #expect(EMVDate.year(fromTwoDigits: 0) == 2000)
        #expect(EMVDate.year(fromTwoDigits: 49) == 2049)
        #expect(EMVDate.year(fromTwoDigits: 50) == 1950)
        #expect(EMVDate.year(fromTwoDigits: 99) == 1999)
        #expect(try EMVDate(n6: hex("991231")) < (try EMVDate(n6: hex("000101"))))
        #expect("\(try EMVDate(n6: hex("250105")))" == "2025-01-05")
    }

    @Test func fromFoundationDate() throws {
        // 2025-12-31T23:30:00Z is already 2026-01-01 in Berlin.
        let instant = Date(timeIntervalSince1970: 1_767_223_800)
        #expect(try EMVDate(instant, timeZone: TimeZone(identifier: "UTC")!).n6 == hex("251231"))
        #expect(try EMVDate(instant, timeZone: TimeZone(identifier: "Europe/Berlin")!).n6 == hex("260101"))
    }

    /// Expiry checks mirroring openemv emv-utils' emv_date_test.c cases (transaction date, expiry YYMM).
    @Test(arguments: [
        ("230501", "2204", true),  // expired the previous year
        ("210501", "2204", false),  // expires next year
        ("000501", "9904", true),  // 1999 expiry before a 2000 transaction: century rule
        ("990501", "0004", false),  // 2000 expiry after a 1999 transaction
        ("220501", "2204", true),  // expired the previous month
        ("220331", "2204", false),  // expires next month
        ("220415", "2204", false),  // expires this month
        ("220430", "2204", false),  // last valid day
    ])
    func expiry(_ transaction: String, _ yymm: String, _ expired: Bool) throws {
        let expiry = try ExpiryDate(n4: hex(yymm))
        #expect(expiry.yymm == yymm)
        #expect(expiry.n4 == hex(yymm))
        #expect(expiry.isExpired(on: try EMVDate(n6: hex(transaction))) == expired)
    }

    @Test func lastDayOfMonth() throws {
        #expect(try ExpiryDate(year: 2024, month: 2).lastDay == (try EMVDate(year: 2024, month: 2, day: 29)))
        #expect(try ExpiryDate(year: 2100 - 51, month: 2).lastDay.day == 28)  // 2049
        #expect(try ExpiryDate(year: 2000, month: 2).lastDay.day == 29)
    }
}

@Suite struct OptionSetTests {
    @Test func tvrNamedBits() throws {
        // Bit names per EMV 4.4 Book 3 annex C5 (as also tabulated by openemv emv-utils).
        let cases: [(String, TerminalVerificationResults, String)] = [
            ("8000000000", .offlineDataAuthenticationNotPerformed, "Offline data authentication was not performed"),
            ("0400000000", .cdaFailed, "CDA failed"),
            ("0040000000", .expiredApplication, "Expired application"),
            ("0008000000", .newCard, "New card"),
            ("0000800000", .cardholderVerificationNotSuccessful, "Cardholder verification was not successful"),
            ("0000200000", .pinTryLimitExceeded, "PIN Try Limit exceeded"),
            ("0000040000", .onlineCVMCaptured, "Online CVM captured"),
            ("0000008000", .floorLimitExceeded, "Transaction exceeds floor limit"),
            ("0000001000", .randomlySelectedForOnline, "Transaction selected randomly for online processing"),
            ("0000000800", .merchantForcedOnline, "Merchant forced transaction online"),
            ("0000000080", .defaultTDOLUsed, "Default TDOL used"),
            ("0000000040", .issuerAuthenticationFailed, "Issuer authentication failed"),
            ("0000000010", .scriptFailedAfterFinalGenerateAC, "Script processing failed after final GENERATE AC"),
        ]
        for (encoded, bit, name) in cases {
            let tvr = try TerminalVerificationResults(bytes: hex(encoded))
            #expect(tvr == bit)
            #expect(tvr.names == [name])
            #expect(tvr.bytes == hex(encoded))
            #expect(TerminalVerificationResults(byte: 1, bit: 8) == .offlineDataAuthenticationNotPerformed)
        }
        #expect(TerminalVerificationResults.onlinePINEntered == .onlineCVMCaptured)
    }

    @Test func tvrTypicalOnlineTransaction() throws {
        // A common first-tap TVR: ODA not performed, floor limit exceeded.
        let tvr = try TerminalVerificationResults(bytes: hex("8000008000"))
        #expect(tvr == [.offlineDataAuthenticationNotPerformed, .floorLimitExceeded])
        #expect(
            tvr.description
                == "8000008000: Offline data authentication was not performed; Transaction exceeds floor limit")
        #expect(tvr.reservedBits.isEmpty)
        #expect(TerminalVerificationResults().description == "0000000000")
    }

    @Test func tvrKernel2RelayResistance() throws {
        #expect(try TerminalVerificationResults(bytes: hex("0000000002")).relayResistance == .performed)
        #expect(try TerminalVerificationResults(bytes: hex("0000000001")).relayResistance == .notPerformed)
        #expect(try TerminalVerificationResults(bytes: hex("0000000000")).relayResistance == .notSupported)
        let threshold = try TerminalVerificationResults(bytes: hex("000000000A"))
        #expect(threshold.contains(.relayResistanceThresholdExceeded))
        #expect(threshold.relayResistance == .performed)
    }

    @Test func reservedBitsAreKept() throws {
        // TVR byte 2 bit 3 is RFU: kept on re-encoding and reported.
        let tvr = try TerminalVerificationResults(bytes: hex("0004000000"))
        #expect(tvr.names.isEmpty)
        #expect(tvr.reservedBits.bytes == hex("0004000000"))
        #expect(tvr.bytes == hex("0004000000"))
        #expect(tvr.description == "0004000000: RFU bits 0004000000")
    }

    @Test func lengthIsChecked() {
        let error = valueError { _ = try TerminalVerificationResults(bytes: hex("80000000")) }
        #expect(error == ValueError.invalidLength)
        #expect(throws: ValueError.invalidLength) { try ApplicationInterchangeProfile(bytes: hex("19")) }
        #expect(throws: ValueError.invalidLength) { try TerminalTransactionQualifiers(bytes: hex("3600000000")) }
        #expect(throws: ValueError.invalidLength) { try CardTransactionQualifiers(bytes: []) }
        #expect(throws: ValueError.invalidLength) { try TransactionStatusInformation(bytes: hex("E8")) }
    }

    @Test func ttq() throws {
        // Book C-3 annex A.2: 36 = EMV mode, contact chip, online PIN, signature; byte 3 C0 = issuer update
        // processing and consumer device CVM supported.
        let ttq = try TerminalTransactionQualifiers(bytes: hex("3600C000"))
        #expect(
            ttq == [
                .emvModeSupported, .emvContactChipSupported, .onlinePINSupported, .signatureSupported,
                .issuerUpdateProcessingSupported, .consumerDeviceCVMSupported,
            ])
        #expect(
            ttq.names == [
                "EMV mode supported", "EMV contact chip supported", "Online PIN supported", "Signature supported",
                "Issuer update processing supported", "Consumer device CVM supported",
            ])
        #expect(ttq.bytes == hex("3600C000"))
        let required = try TerminalTransactionQualifiers(bytes: hex("A1C00080"))
        #expect(
            required == [
                .magStripeModeSupported, .emvModeSupported, .odaForOnlineAuthorizationsSupported,
                .onlineCryptogramRequired, .cvmRequired, .fDDAVersion1Supported,
            ])
        #expect(TerminalTransactionQualifiers.offlineOnlyReader.bytes == hex("08000000"))
        #expect(TerminalTransactionQualifiers.contactChipOfflinePINSupported.bytes == hex("00200000"))
    }

    @Test func ctq() throws {
        let ctq = try CardTransactionQualifiers(bytes: hex("8080"))
        #expect(ctq == [.onlinePINRequired, .consumerDeviceCVMPerformed])
        #expect(ctq.names == ["Online PIN required", "Consumer device CVM performed"])
        #expect(CardTransactionQualifiers.goOnlineIfODAFails.bytes == hex("2000"))
        #expect(CardTransactionQualifiers.issuerUpdateProcessingSupported.bytes == hex("0040"))
    }

    @Test func aip() throws {
        // A typical Mastercard contactless AIP 1980: CV supported, TRM, CDA; EMV mode.
        let aip = try ApplicationInterchangeProfile(bytes: hex("1980"))
        #expect(
            aip == [
                .cardholderVerificationSupported, .terminalRiskManagementRequired, .cdaSupported, .emvModeSupported,
            ])
        // A Visa qVSDC AIP 2000: DDA supported.
        #expect(try ApplicationInterchangeProfile(bytes: hex("2000")) == .ddaSupported)
        #expect(ApplicationInterchangeProfile.relayResistanceProtocolSupported.bytes == hex("0001"))
        #expect(ApplicationInterchangeProfile.sdaSupported.bytes == hex("4000"))
        #expect(ApplicationInterchangeProfile.onDeviceCardholderVerificationSupported.bytes == hex("0200"))
    }

    @Test func tsi() throws {
        let tsi = try TransactionStatusInformation(bytes: hex("E800"))
        #expect(
            tsi.names == [
                "Offline data authentication was performed", "Cardholder verification was performed",
                "Card risk management was performed", "Terminal risk management was performed",
            ])
        #expect(tsi.bytes == hex("E800"))
    }
}

@Suite struct CVMTests {
    /// openemv emv-utils' emv_cvmlist_test.c test 6: six rules, zero amounts.
    @Test func multipleRules() throws {
        let list = try CVMList(bytes: hex("0000000000000000 4201 4403 4103 5E03 4203 1F03"))
        #expect(list.amountX == 0)
        #expect(list.amountY == 0)
        #expect(
            list.rules.map(\.method) == [
                .encipheredPINOnline, .encipheredPINByICC, .plaintextPINByICC, .signature, .encipheredPINOnline,
                .noCVMRequired,
            ])
        #expect(
            list.rules.map(\.condition) == [
                .unattendedCash, .terminalSupportsCVM, .terminalSupportsCVM, .terminalSupportsCVM, .terminalSupportsCVM,
                .terminalSupportsCVM,
            ])
        #expect(list.rules.map(\.applyNextIfUnsuccessful) == [true, true, true, true, true, false])
        #expect(list.bytes == hex("0000000000000000420144034103 5E0342031F03"))
    }

    /// emv-utils tests 3-5: amounts X 100000, Y 1000 and one rule.
    @Test(arguments: [
        ("000186A0000003E81E03", CVMMethod.signature, CVMCondition.terminalSupportsCVM, false),
        ("000186A0000003E84403", .encipheredPINByICC, .terminalSupportsCVM, true),
        ("000186A0000003E84201", .encipheredPINOnline, .unattendedCash, true),
    ])
    func singleRule(_ encoded: String, _ method: CVMMethod, _ condition: CVMCondition, _ next: Bool) throws {
        let list = try CVMList(bytes: hex(encoded))
        #expect(list.amountX == 100_000)
        #expect(list.amountY == 1000)
        #expect(list.rules == [CVMRule(method: method, applyNextIfUnsuccessful: next, condition: condition)])
        #expect(list.bytes == hex(encoded))
    }

    @Test func malformedLists() {
        // emv-utils test 2: a rule cut in half.
        let cut = valueError { _ = try CVMList(bytes: hex("000186A0000003E81E0342")) }
        #expect(cut == ValueError.invalidLength)
        #expect(cut?.offset == 10)
        let short = valueError { _ = try CVMList(bytes: hex("000186A0")) }
        #expect(short == ValueError.invalidLength)
        #expect(short?.offset == 4)
        // Amounts only: a list without rules is well formed (CVM processing then fails).
        #expect((try? CVMList(bytes: hex("000186A0000003E8")))?.rules.isEmpty == true)
    }

    @Test func methodAndConditionNames() {
        #expect(CVMMethod.plaintextPINByICC.name == "Plaintext PIN verification performed by ICC")
        #expect(CVMMethod(rawValue: 0x08).name == "Finger biometric verified offline (by ICC)")
        #expect(CVMMethod(rawValue: 0x0D).name == "Iris biometric verified online")
        #expect(CVMMethod(rawValue: 0x5E) == .signature)  // control bits dropped
        #expect(CVMMethod(rawValue: 0x25).name == "Reserved for use by individual payment systems")
        #expect(CVMCondition.overY.name == "If transaction is in the application currency and is over Y value")
        #expect(CVMCondition.underX.usesAmount)
        #expect(!CVMCondition.always.usesAmount)
        #expect(CVMCondition(rawValue: 0x0A).name == "Reserved for future use")
        #expect(
            "\(CVMRule(codeByte: 0x42, condition: .always))" == "Enciphered PIN verified online, Always, else next rule"
        )
    }

    @Test func results() throws {
        let results = try CVMResults(bytes: hex("420300"))
        #expect(results.method == .encipheredPINOnline)
        #expect(results.condition == .terminalSupportsCVM)
        #expect(results.result == .unknown)
        #expect(results.bytes == hex("420300"))
        let none = try CVMResults(bytes: hex("3F0000"))
        #expect(none.method == .notPerformed)
        #expect("\(none)" == "No CVM performed, Always: Unknown")
        let signature = CVMResults(
            rule: CVMRule(method: .signature, applyNextIfUnsuccessful: false, condition: .always),
            result: .unknown)
        #expect(signature.bytes == hex("1E0000"))
        #expect(try CVMResults(bytes: hex("1F0302")).result == .successful)
        #expect(throws: ValueError.invalidLength) { try CVMResults(bytes: hex("1F03")) }
    }
}

@Suite struct ApplicationFileLocatorTests {
    @Test func recordsAndAuthenticationFlags() throws {
        // The AAB Debit Mastercard's AFL (tlv-real-cards.json): SFI 1 record 1; SFI 2 record 1 (authenticated);
        // SFI 4 records 1-2.
        let bytes: [UInt8] = [0x08, 1, 1, 0, 0x10, 1, 1, 1, 0x20, 1, 2, 0]
        let afl = try #require(ApplicationFileLocator(bytes: bytes))
        #expect(afl.records.map { [$0.sfi, $0.number] } == [[1, 1], [2, 1], [4, 1], [4, 2]])
        #expect(afl.records.map(\.isAuthenticated) == [false, true, false, false])
        #expect(afl.bytes == bytes)
        #expect(ApplicationFileLocator(bytes: [])?.records.isEmpty == true)
    }

    @Test(arguments: [
        [UInt8]([0x08, 1, 1]), [0x09, 1, 1, 0], [0x00, 1, 1, 0], [0xF8, 1, 1, 0], [0x08, 0, 1, 0], [0x08, 2, 1, 0],
        [0x08, 1, 2, 3],
    ])
    func malformedEntriesAreRejected(bytes: [UInt8]) {
        #expect(ApplicationFileLocator(bytes: bytes) == nil)
    }
}
