import ApplePay
import Crypto
import Foundation
import SwiftASN1
import Testing
import X509

@Suite("Token service: the BER CMS signature")
struct DetachedSignatureWriterTests {
    static let content = Array("ephemeral key, data, transaction id, application data".utf8)

    /// Writes `signature`, `content`, the root and the Apple fixture's signature to a fresh directory.
    static func files(signature: [UInt8], content: [UInt8]) throws -> URL {
        let directory = try ExternalTool.temporaryDirectory()
        try Data(signature).write(to: directory.appendingPathComponent("signature.der"))
        try Data(content).write(to: directory.appendingPathComponent("content.bin"))
        try TokenServiceFixture.pki.root.serializeAsPEM().pemString
            .write(to: directory.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)
        return directory
    }

    static func opensslVerify(in directory: URL, chain: Bool) throws -> ExternalTool.Output {
        let openssl = try #require(ExternalTool.openssl)
        var arguments = [
            "cms", "-verify", "-inform", "DER", "-in", directory.appendingPathComponent("signature.der").path,
            "-binary", "-content", directory.appendingPathComponent("content.bin").path, "-out", "/dev/null",
        ]
        if chain {
            // The leaf's key usage is digitalSignature only, as Apple's: no S/MIME purpose applies.
            arguments += [
                "-CAfile", directory.appendingPathComponent("root.pem").path, "-purpose", "any", "-attime",
                String(Int(TokenServiceFixture.signingTime.timeIntervalSince1970)),
            ]
        } else {
            arguments.append("-noverify")
        }
        return try ExternalTool.run(openssl, arguments)
    }

    @Test(
        "openssl verifies the detached signature over the content, and the chain to the test root",
        .enabled(if: ExternalTool.openssl != nil)
    )
    func opensslVerifies() throws {
        let signature = try TokenServiceFixture.pki.signatureWriter.signature(
            over: Self.content, signingTime: TokenServiceFixture.signingTime
        )
        let directory = try Self.files(signature: signature, content: Self.content)
        defer { try? FileManager.default.removeItem(at: directory) }
        let signatureOnly = try Self.opensslVerify(in: directory, chain: false)
        #expect(signatureOnly.status == 0, "\(signatureOnly.standardError)")
        let withChain = try Self.opensslVerify(in: directory, chain: true)
        #expect(withChain.status == 0, "\(withChain.standardError)")
    }

    @Test("openssl rejects the signature over other content", .enabled(if: ExternalTool.openssl != nil))
    func opensslRejectsOtherContent() throws {
        let signature = try TokenServiceFixture.pki.signatureWriter.signature(
            over: Self.content, signingTime: TokenServiceFixture.signingTime
        )
        var other = Self.content
        other[0] ^= 0x01
        let directory = try Self.files(signature: signature, content: other)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Self.opensslVerify(in: directory, chain: false).status != 0)
    }

    @Test(
        "the outline matches Apple's real signatures: indefinite lengths, [leaf, intermediate], the same attributes",
        .enabled(if: ExternalTool.openssl != nil), arguments: ["gala-2021", "sepuka-2019"]
    )
    func outlineMatchesApple(fixture: String) throws {
        let openssl = try #require(ExternalTool.openssl)
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(fixture)/token", withExtension: "json"))
        let apple = try #require(
            Data(base64Encoded: try JSONDecoder().decode(PaymentData.self, from: Data(contentsOf: url)).signature)
        )
        let ours = try TokenServiceFixture.pki.signatureWriter.signature(
            over: Self.content, signingTime: TokenServiceFixture.signingTime
        )
        let directory = try Self.files(signature: ours, content: Self.content)
        defer { try? FileManager.default.removeItem(at: directory) }
        let appleFile = directory.appendingPathComponent("apple.der")
        try apple.write(to: appleFile)

        func outline(_ file: URL) throws -> ASN1Outline {
            let output = try ExternalTool.run(openssl, ["asn1parse", "-inform", "DER", "-i", "-in", file.path])
            #expect(output.status == 0, "\(output.standardError)")
            return ASN1Outline(asn1parse: output.text)
        }
        let appleOutline = try outline(appleFile)
        let ourOutline = try outline(directory.appendingPathComponent("signature.der"))
        #expect(ourOutline == appleOutline, "ours:\n\(ourOutline)\nApple's:\n\(appleOutline)")
        // The comparison is only as good as what the outline holds: check it saw what matters.
        #expect(appleOutline.nodes.filter(\.indefinite).count == 5)
        let objects = appleOutline.nodes.compactMap(\.object)
        for name in ["contentType", "signingTime", "1.2.840.113549.1.9.52", "messageDigest", "ecdsa-with-SHA256"] {
            #expect(objects.contains(name), "\(name)")
        }
        #expect(appleOutline.nodes.filter { $0.depth == 4 && $0.type == "SEQUENCE" }.count >= 3)
    }

    @Test("swift-asn1's BER parser reads it back: signing time, digest and both certificates in order")
    func berParserReadsItBack() throws {
        let pki = TokenServiceFixture.pki
        let signature = try pki.signatureWriter.signature(
            over: Self.content, signingTime: TokenServiceFixture.signingTime)
        #expect(Array(signature.prefix(2)) == [0x30, 0x80])
        #expect(Array(signature.suffix(6)) == [0, 0, 0, 0, 0, 0])

        let root = try BER.parse(signature)
        guard case .constructed(let contentInfo) = root.content else { Issue.record("not constructed"); return }
        let contentInfoNodes = Array(contentInfo)
        try #require(contentInfoNodes.count == 2)
        #expect(try ASN1ObjectIdentifier(berEncoded: contentInfoNodes[0]) == [1, 2, 840, 113_549, 1, 7, 2])
        guard case .constructed(let explicit) = contentInfoNodes[1].content,
            case .constructed(let signedData) = try #require(explicit.first(where: { _ in true })).content
        else { Issue.record("no SignedData"); return }
        let fields = Array(signedData)
        #expect(fields.count == 5)
        guard case .constructed(let certificateNodes) = fields[3].content else {
            Issue.record("no certificates"); return
        }
        let certificates = try certificateNodes.map { try Certificate(derEncoded: Array($0.encodedBytes)) }
        #expect(certificates == [pki.leaf, pki.intermediate])

        // SignerInfo → signed attributes: find signingTime and messageDigest.
        guard case .constructed(let signerInfos) = fields[4].content,
            case .constructed(let signerInfo) = try #require(signerInfos.first(where: { _ in true })).content,
            case .constructed(let attributes) = Array(signerInfo)[3].content
        else { Issue.record("no signed attributes"); return }
        var signingTime: UTCTime?
        var digest: [UInt8]?
        for attribute in attributes {
            guard case .constructed(let parts) = attribute.content else { continue }
            let list = Array(parts)
            let type = try ASN1ObjectIdentifier(berEncoded: list[0])
            guard case .constructed(let values) = list[1].content, let value = values.first(where: { _ in true })
            else { continue }
            if type == [1, 2, 840, 113_549, 1, 9, 5] { signingTime = try UTCTime(berEncoded: value) }
            if type == [1, 2, 840, 113_549, 1, 9, 4] { digest = Array(try ASN1OctetString(berEncoded: value).bytes) }
        }
        let time = try #require(signingTime)
        // 2026-03-01T12:00:00Z
        let parts: [Int] = [time.year, time.month, time.day, time.hours, time.minutes, time.seconds]
        #expect(parts == [2026, 3, 1, 12, 0, 0])
        #expect(digest == Array(SHA256.hash(data: Self.content)))
    }
}
