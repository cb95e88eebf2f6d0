import CardEmulator
import ContactlessTesting
import EMV
import Foundation
import GatewayAPI
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `tap serve` hands its readers and which key options it accepts: the test CA keys only in test mode (said at
/// start-up), the operator's list with `--ca-keys`, and no `--issuer-pin-key` without the issuer it is agreed with.
@Suite("Process: tap serve's key options", .serialized, .enabled(if: TapBinary.shouldRun, TapBinary.skipReason))
struct ServeOptionsProcessTests {
    @Test("without --ca-keys readers get the test CA keys, and the start-up log says so")
    func testCAKeysByDefault() async throws {
        let (keys, log) = try await preparedCAKeys(extraArguments: [])
        #expect(keys == (try CardProfile.testCAPublicKeys.keys))
        #expect(log.contains("readers get the test CA keys"))
    }

    @Test("with --ca-keys readers get exactly the file's keys")
    func operatorCAKeys() async throws {
        let visaOnly = try CAPublicKeyList(
            try CardProfile.testCAPublicKeys.keys.filter { $0.rid == [0xA0, 0x00, 0x00, 0x00, 0x03] })
        #expect(visaOnly.keys.count == 1)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try visaOnly.write(to: file)

        let (keys, log) = try await preparedCAKeys(extraArguments: ["--ca-keys", file.path])
        #expect(keys == visaOnly.keys)
        #expect(!log.contains("readers get the test CA keys"))
    }

    @Test("--issuer-pin-key without --issuer is refused before anything starts")
    func pinKeyNeedsIssuer() async throws {
        let logs = try ProcessLogs()
        defer { logs.close() }
        let key = FileManager.default.temporaryDirectory.appendingPathComponent("pin-\(UUID().uuidString).hex")
        defer { try? FileManager.default.removeItem(at: key) }
        try Data(String(repeating: "11", count: 16).utf8).write(to: key)
        try await ProcessStore.with(.sqlite) { store in
            let serve = try TapProcess(
                ["serve", "--port", "0", "--issuer-pin-key", key.path] + store.arguments, name: "serve", logs: logs)
            defer { serve.killAndWait() }
            #expect(try await serve.ending() == .exit(64))
            #expect(serve.standardError.contains("--issuer-pin-key"))
            #expect(!FileManager.default.fileExists(atPath: store.dataDirectory.path), "it created its data directory")
        }
    }

    /// The CA keys a reader prepared on a `tap serve` with `extraArguments` got, and the server's standard error.
    private func preparedCAKeys(
        extraArguments: [String]
    ) async throws -> ([CAPublicKey], String) {
        let logs = try ProcessLogs()
        defer { logs.close() }
        var result: ([CAPublicKey], String) = ([], "")
        try await ProcessStore.with(.sqlite) { store in
            try await GatewayClient.withHTTPClient { http in
                let (serve, url) = try await TapProcess.serve(
                    store.arguments + extraArguments, name: "serve", logs: logs)
                defer { serve.killAndWait() }
                let merchant = try await ProcessMerchant.onboard(
                    store: store.arguments, client: GatewayClient(http: http, baseURL: url), logs: logs)
                serve.send(SIGTERM)
                #expect(try await serve.ending() == .exit(0))
                result = (try merchant.provisioning.readerConfiguration.caPublicKeyList().keys, serve.standardError)
            }
        }
        return result
    }
}
