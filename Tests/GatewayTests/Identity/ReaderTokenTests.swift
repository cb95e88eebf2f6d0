import Foundation
import Gateway
import GatewayAPI
import Testing
import TestMode

@Suite("Reader tokens and sessions")
struct ReaderTokenTests {
    let clock = TestClock()

    @Test("a reader token verifies to its merchant, user, role and relinking")
    func issueAndVerify() async throws {
        let authority = await ReaderTokenAuthority(keys: .generate(), clock: clock.function)
        let issued = try await authority.issueReaderToken(
            merchantId: "mer_a", userId: "usr_a", isAdmin: true, allowsRelinking: true, lifetime: 600)
        #expect(issued.expiresAt == clock.now.addingTimeInterval(600))
        #expect(!issued.description.contains(issued.token))
        let caller = try await authority.verify(issued.token)
        #expect(
            caller
                == Caller(
                    credential: .readerToken, merchantId: "mer_a", userId: "usr_a", isAdmin: true, allowsRelinking: true
                ))

        let staff = try await authority.issueReaderToken(
            merchantId: "mer_a", userId: "usr_b", isAdmin: false, allowsRelinking: false, lifetime: 600)
        let staffCaller = try await authority.verify(staff.token)
        #expect(!staffCaller.isAdmin && !staffCaller.allowsRelinking)
    }

    @Test("the token names the signing key in its kid header")
    func kidHeader() async throws {
        let keys = GatewayKeys.generate()
        let authority = await ReaderTokenAuthority(keys: keys, clock: clock.function)
        let token = try await authority.issueReaderToken(
            merchantId: "mer_a", userId: "usr_a", isAdmin: true, allowsRelinking: false, lifetime: 60
        ).token
        let header = try #require(token.split(separator: ".").first)
        let json = try #require(Data(base64URL: String(header)))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: String])
        #expect(object["kid"] == keys.signingKeyId)
        #expect(object["alg"] == "ES256")
    }

    @Test("a session verifies to its merchant and device")
    func session() async throws {
        let authority = await ReaderTokenAuthority(keys: .generate(), clock: clock.function)
        let session = try await authority.issueSession(merchantId: "mer_a", deviceId: "dev-1")
        #expect(session.expiresAt == clock.now.addingTimeInterval(ReaderTokenAuthority.sessionLifetime))
        let caller = try await authority.verify(session.token)
        #expect(caller == Caller(credential: .readerSession, merchantId: "mer_a", deviceId: "dev-1"))
    }

    @Test("a token is accepted until its expiry and refused as expired from then on")
    func expiry() async throws {
        let authority = await ReaderTokenAuthority(keys: .generate(), clock: clock.function)
        let token = try await authority.issueReaderToken(
            merchantId: "mer_a", userId: "usr_a", isAdmin: true, allowsRelinking: false, lifetime: 60
        ).token
        clock.advance(by: 59)
        _ = try await authority.verify(token)
        clock.advance(by: 1)
        await #expect(throws: GatewayAPIError.tokenExpired) { try await authority.verify(token) }
    }

    @Test("a tampered token, another PSP's token and garbage are invalid")
    func invalidTokens() async throws {
        let authority = await ReaderTokenAuthority(keys: .generate(), clock: clock.function)
        let other = await ReaderTokenAuthority(keys: .generate(), clock: clock.function)
        let token = try await authority.issueReaderToken(
            merchantId: "mer_a", userId: "usr_a", isAdmin: false, allowsRelinking: false, lifetime: 600
        ).token
        // Promote the staff user to admin in the payload, keeping the signature.
        var parts = token.split(separator: ".").map(String.init)
        let payload = try #require(Data(base64URL: parts[1]))
        let promoted = String(decoding: payload, as: UTF8.self).replacingOccurrences(of: "staff", with: "admin")
        parts[1] = Data(promoted.utf8).base64URLEncoded
        let tampered = parts.joined(separator: ".")

        let foreign = try await other.issueReaderToken(
            merchantId: "mer_a", userId: "usr_a", isAdmin: true, allowsRelinking: true, lifetime: 600
        ).token
        for bad in [tampered, foreign, "garbage", "", "a.b.c", token + "x", parts[0] + "." + parts[1] + "."] {
            await #expect(throws: GatewayAPIError.invalidReaderToken) { try await authority.verify(bad) }
        }
    }
}

extension Data {
    /// Decodes unpadded base64url.
    init?(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }

    /// Unpadded base64url.
    var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
