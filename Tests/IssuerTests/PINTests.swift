import CardEmulator
import EMV
import ISO8583
import Issuer
import ReaderKernel
import SmartCard
import Testing

@Suite("Online PIN")
struct PINTests {
    enum Format: String, CaseIterable { case iso0, iso4 }

    static func pinBlock(_ pin: String, pan: String, _ format: Format) throws -> [UInt8] {
        format == .iso0
            ? try IssuerFixture.format0PINBlock(pin, pan: pan) : try IssuerFixture.format4PINBlock(pin, pan: pan)
    }

    /// Taps `channel` again and sends the 0100 with the PIN (nil: no PIN block).
    static func authorize(
        _ host: IssuerHost, _ channel: LoopbackChannel<EmulatedCard>, pin: String?, format: Format = .iso0,
        stan: Int, minorUnits: Int = 1_000
    ) async throws -> ResponseCode? {
        let data = try await IssuerFixture.tap(channel, minorUnits: minorUnits)
        let block = try pin.map { try pinBlock($0, pan: data.pan.digits, format) }
        let request = try IssuerFixture.authorizationRequest(data, minorUnits: minorUnits, stan: stan, pinBlock: block)
        // Over the wire as the gateway sends it: format 0 and format 4 blocks both fit the contactless spec.
        let received = try ISO8583Message(decoding: try request.encoded(using: .contactless), using: .contactless)
        return await host.handle(received, at: IssuerFixture.transactionDate)?.responseCode
    }

    @Test("PIN required, then the right PIN approves", arguments: TestCard.Scheme.allCases, Format.allCases)
    func correctPIN(scheme: TestCard.Scheme, format: Format) async throws {
        let card = try #require(TestCards.card(.onlinePINRequired, scheme))
        let host = try IssuerFixture.host()
        let channel = try IssuerFixture.channel(card)
        #expect(try await Self.authorize(host, channel, pin: nil, stan: 1) == .pinRequired)
        #expect(try await Self.authorize(host, channel, pin: TestCards.pin, format: format, stan: 2) == .approved)
    }

    @Test("wrong PIN: 55, 55, then 75; the right PIN afterwards still gets 75")
    func threeWrongPINs() async throws {
        let card = try #require(TestCards.card(.onlinePINRequired, .visa))
        let host = try IssuerFixture.host()
        let channel = try IssuerFixture.channel(card)
        #expect(try await Self.authorize(host, channel, pin: "0000", stan: 1) == .incorrectPIN)
        #expect(try await Self.authorize(host, channel, pin: "9999", format: .iso4, stan: 2) == .incorrectPIN)
        #expect(try await Self.authorize(host, channel, pin: "1111", stan: 3) == .pinTriesExceeded)
        #expect(try await Self.authorize(host, channel, pin: TestCards.pin, stan: 4) == .pinTriesExceeded)
    }

    @Test("a right PIN resets the wrong-PIN count")
    func rightPINResets() async throws {
        let card = try #require(TestCards.card(.onlinePINRequired, .mastercard))
        let host = try IssuerFixture.host()
        let channel = try IssuerFixture.channel(card)
        #expect(try await Self.authorize(host, channel, pin: "0000", stan: 1) == .incorrectPIN)
        #expect(try await Self.authorize(host, channel, pin: "0000", stan: 2) == .incorrectPIN)
        #expect(try await Self.authorize(host, channel, pin: TestCards.pin, stan: 3) == .approved)
        #expect(try await Self.authorize(host, channel, pin: "0000", stan: 4) == .incorrectPIN)
    }

    @Test("the incorrect-PIN card refuses every PIN, the third time with 75")
    func incorrectPINCard() async throws {
        let card = try #require(TestCards.card(.incorrectPIN, .visa))
        let host = try IssuerFixture.host()
        let channel = try IssuerFixture.channel(card)
        #expect(try await Self.authorize(host, channel, pin: nil, stan: 1) == .pinRequired)
        #expect(try await Self.authorize(host, channel, pin: TestCards.pin, stan: 2) == .incorrectPIN)
        #expect(try await Self.authorize(host, channel, pin: TestCards.pin, stan: 3) == .incorrectPIN)
        #expect(try await Self.authorize(host, channel, pin: TestCards.pin, stan: 4) == .pinTriesExceeded)
    }

    @Test("an undecipherable PIN block counts as a wrong PIN")
    func garbagePINBlock() async throws {
        let card = try #require(TestCards.card(.onlinePINRequired, .visa))
        let host = try IssuerFixture.host()
        let data = try await IssuerFixture.tap(try IssuerFixture.channel(card))
        for block in [[UInt8](repeating: 0xAB, count: 8), [0x01, 0x02, 0x03]] {
            // The gateway's builder refuses a 3-byte PIN block: set field 52 by hand, as a hostile acquirer would.
            var request = try IssuerFixture.authorizationRequest(data)
            request[.pinBlock] = .binary(block)
            // Same ATC twice: after a wrong PIN the cryptogram may come back with another PIN, judged on it too.
            let response = await host.handle(request, at: IssuerFixture.transactionDate)
            #expect(response?.responseCode == .incorrectPIN)
        }
    }

    @Test("above the account's online-PIN limit a PIN is required")
    func onlinePINLimit() async throws {
        let keys = try IssuerFixture.keys()
        let card = try #require(TestCards.card(.approve, .visa))
        var account = try TestCards.account(for: card, keys: keys)
        account.onlinePINLimit = 3_000
        let host = IssuerHost(keys: keys, repository: try InMemoryIssuerRepository(accounts: [account]))
        let channel = try IssuerFixture.channel(card)
        #expect(try await Self.authorize(host, channel, pin: nil, stan: 1, minorUnits: 3_000) == .approved)
        #expect(try await Self.authorize(host, channel, pin: nil, stan: 2, minorUnits: 3_001) == .pinRequired)
        #expect(
            try await Self.authorize(host, channel, pin: TestCards.pin, stan: 3, minorUnits: 3_001) == .approved)
        let stored = try #require(await host.repository.account(account.keyedPAN))
        #expect(stored.availableBalance == TestCards.balance - 6_001)
    }

    @Test("single tap and PIN: the cryptogram answered 65 comes back with the PIN once", arguments: Format.allCases)
    func singleTapAndPIN(format: Format) async throws {
        let card = try #require(TestCards.card(.onlinePINRequired, .mastercard))
        let host = try IssuerFixture.host()
        let data = try await IssuerFixture.tap(try IssuerFixture.channel(card))
        let date = IssuerFixture.transactionDate
        let withoutPIN = try IssuerFixture.authorizationRequest(data, stan: 1)
        #expect(await host.handle(withoutPIN, at: date)?.responseCode == .pinRequired)
        // The same cryptogram again without a PIN is a replay.
        #expect(await host.handle(withoutPIN, at: date)?.responseCode == .cryptogramReplayed)
        let block = try Self.pinBlock(TestCards.pin, pan: data.pan.digits, format)
        let withPIN = try IssuerFixture.authorizationRequest(data, stan: 2, pinBlock: block)
        #expect(await host.handle(withPIN, at: date)?.responseCode == .approved)
        // Decided: no third use, with or without the PIN.
        #expect(await host.handle(withPIN, at: date)?.responseCode == .cryptogramReplayed)
    }

    @Test("a cryptogram never answered 65 cannot come back with a PIN")
    func noResubmissionWithoutPINRequired() async throws {
        let card = try #require(TestCards.card(.approve, .visa))
        let host = try IssuerFixture.host()
        let data = try await IssuerFixture.tap(try IssuerFixture.channel(card))
        let date = IssuerFixture.transactionDate
        #expect(await host.handle(try IssuerFixture.authorizationRequest(data, stan: 1), at: date)?.responseCode == .approved)
        let block = try Self.pinBlock(TestCards.pin, pan: data.pan.digits, .iso4)
        let withPIN = try IssuerFixture.authorizationRequest(data, stan: 2, pinBlock: block)
        #expect(await host.handle(withPIN, at: date)?.responseCode == .cryptogramReplayed)
    }
}
