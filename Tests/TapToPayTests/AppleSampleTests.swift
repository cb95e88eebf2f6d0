import CardEmulator
import Foundation
import GatewayAPI
import TapToPay
import Testing
import TestMode

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Apple's sample from "Adding support for Tap to Pay on iPhone to your app" (ProximityReader documentation), with
// `import ProximityReader` replaced by `import TapToPay`. As published it does not compile against ProximityReader
// either; the three fixes are marked `FIX:`. Where the article writes "Update the UI" or "Handle events", the
// sample records what each loop saw, so the test can check it.

public class MyPaymentProcessor {

    var reader: PaymentCardReader?
    // FIX: Apple's sample declares this stored property in an extension, which Swift does not allow.
    var session: PaymentCardReaderSession?
    /// What each event loop saw, by the function that started it (the test's window into the "UI").
    let seen = SeenEvents()

    init() {
        guard PaymentCardReader.isSupported else {
            // This device doesn't support Tap to Pay on iPhone.
            return
        }
        reader = PaymentCardReader()
    }
}

extension MyPaymentProcessor {

    public func presentTermsAndConditions(tokenData: String) async throws {
        let token = PaymentCardReader.Token(rawValue: tokenData)

        // Display the UI only if the merchant hasn’t accepted the terms and conditions yet.
        // FIX: Apple's sample calls `reader.isAccountLinked(using:token)` without `try await` on the optional.
        if try await reader?.isAccountLinked(using: token) == false {
            // Confirm that the user is an admin. Otherwise, display a message that
            // states only admins may accept the Terms and Conditions.
            do {
                try await reader?.linkAccount(using: token)
            } catch PaymentCardReaderError.notAllowed {
                seen.record("terms", "only admins may accept the Terms and Conditions")
            } catch {
                // Handle any errors that occur during linking.
                seen.record("terms", "linking failed: \(error)")
            }
        }
    }
}

extension MyPaymentProcessor {

    public func configureDevice(tokenData: String) async throws {
        guard let reader = self.reader else {
            return
        }
        // FIX: Apple's sample writes `guard let token = …`, but the initializer is not failable.
        let token = PaymentCardReader.Token(rawValue: tokenData)

        let events = reader.events
        let seen = self.seen
        do {

            // Create a task to monitor progress events.
            Task { @MainActor in
                for await event in events {
                    if case .updateProgress = event {
                        // Update the UI with the current progress value.
                        seen.record("configureDevice", event.name)
                    }
                }
            }

            // Prepare the device.
            session = try await reader.prepare(using: token)
        } catch {
            // Handle any errors that occur during preparation.
            // (see PaymentCardReaderError).
            seen.record("configureDevice", "failed: \(error)")
        }
    }
}

extension MyPaymentProcessor {

    public func readCard(for amount: Decimal) async throws -> PaymentCardReadResult? {
        guard let reader else { return nil }

        let request = PaymentCardTransactionRequest(
            amount: amount,
            currencyCode: "EUR",
            for: .purchase)
        let events = reader.events
        let seen = self.seen
        do {
            Task {
                for await event in events {
                    // Handle events that happen while the sheet is up.
                    seen.record("readCard", event.name)
                }
            }

            // Present the payment interface and wait for the result.
            let result = try await session?.readPaymentCard(request)

            // Send result.paymentCardData to your payment service provider.
            return result
        } catch {
            // Handle any errors that occur during read
            // (see PaymentCardReaderSession.ReadError).
            seen.record("readCard", "failed: \(error)")
            return nil
        }
    }
}

extension MyPaymentProcessor {

    public func capturePIN(
        for previousData: PaymentCardReadResult, with rawPINTokenFromPSP: String
    ) async throws -> PaymentCardReadResult? {
        guard let reader else { return nil }

        let transactionId = previousData.id
        let token = PaymentCardReaderSession.PINToken(rawValue: rawPINTokenFromPSP)

        let events = reader.events
        let seen = self.seen
        do {
            Task {
                for await event in events {
                    // Handle events that happen while the sheet is up.
                    seen.record("capturePIN", event.name)
                }
            }

            // Display the PIN capture interface.
            let result = try await session?.capturePIN(using: token, cardReaderTransactionID: transactionId)

            // Send result.paymentCardData to your payment service provider.
            return result
        } catch {
            // Handle any errors that occur during PIN capture
            // (see PaymentCardReaderSession.ReadError).
            seen.record("capturePIN", "failed: \(error)")
            return nil
        }
    }
}

extension MyPaymentProcessor {

    public func cleanup() {
        session = nil
        reader = nil
    }
}

/// The events each of the sample's loops saw, by loop.
final class SeenEvents: @unchecked Sendable {  // its state is behind the lock
    private let lock = NSLock()
    private var seen: [String: [String]] = [:]

    func record(_ loop: String, _ what: String) { lock.withLock { seen[loop, default: []].append(what) } }

    /// What `loop` saw, once it has seen `count` things (or after 5 s).
    func events(of loop: String, count: Int) async throws -> [String] {
        for _ in 0..<500 {
            let events = lock.withLock { seen[loop] ?? [] }
            if events.count >= count { return events }
            try await Task.sleep(for: .milliseconds(10))
        }
        return lock.withLock { seen[loop] ?? [] }
    }
}

/// Apple's sample, unchanged but for its import and three compile fixes, on `CONTACTLESS_READER` test cards against a
/// live gateway: its support check, Terms and Conditions, the device's configuration with a progress loop, a read
/// with an events loop, a PIN capture with a third, all loops running at once, and cleanup.
@Suite("TapToPay: Apple's sample code, unchanged", .serialized)
struct AppleSampleTests {
    /// Sets `CONTACTLESS_READER` for the reader the sample makes (only `PaymentCardReader()` reads it).
    static func reader(_ value: String?) {
        if let value { setenv("CONTACTLESS_READER", value, 1) } else { unsetenv("CONTACTLESS_READER") }
    }

    @Test("without CONTACTLESS_READER the sample sees an unsupported device and does nothing")
    func unsupported() async throws {
        Self.reader(nil)
        #expect(!PaymentCardReader.isSupported)
        let processor = MyPaymentProcessor()
        #expect(processor.reader == nil)
        Self.reader("loopback:no-such-profile.json")
        #expect(!PaymentCardReader.isSupported)
        Self.reader("nfc:phone")
        #expect(!PaymentCardReader.isSupported)
    }

    @Test("terms, configuration, a purchase read: each loop sees its events; the PSP approves")
    func purchase() async throws {
        try await TestGateway.with { gateway in
            let merchant = try await gateway.merchant()
            Self.reader("loopback:visa")
            let processor = MyPaymentProcessor()
            #expect(processor.reader != nil)

            // A staff member cannot accept the terms: the sample shows the admins-only message.
            let staffToken = try await gateway.token(merchant, user: merchant.staffId).rawValue
            try await processor.presentTermsAndConditions(tokenData: staffToken)
            #expect(
                try await processor.seen.events(of: "terms", count: 1) == [
                    "only admins may accept the Terms and Conditions"
                ])

            // The reader finds the PSP from the token alone (its issuer), as ProximityReader does.
            let token = try await gateway.token(merchant).rawValue
            try await processor.presentTermsAndConditions(tokenData: token)
            try await processor.configureDevice(tokenData: token)
            #expect(processor.session != nil)
            #expect(try await processor.seen.events(of: "configureDevice", count: 5).count == 5)

            let result = try #require(try await processor.readCard(for: 12.34))
            let readEvents = ["readyForTap", "cardDetected", "removeCard", "readCompleted", "userInterfaceDismissed"]
            #expect(try await processor.seen.events(of: "readCard", count: 5) == readEvents)
            // The sample's reader runs on the real clock; the test gateway's is moved by hand.
            gateway.clock.set(Date())
            #expect(try await gateway.authorize(result, minorUnits: 1_234, for: merchant).get().status == .succeeded)

            // A second read starts a second loop while the first still runs: both see it.
            _ = try #require(try await processor.readCard(for: 1))
            #expect(try await processor.seen.events(of: "readCard", count: 15).count == 15)

            processor.cleanup()
            #expect(processor.reader == nil && processor.session == nil)
        }
    }

    @Test("a read the issuer wants a PIN for, then capturePIN: three loops at once, each sees its events")
    func pinCapture() async throws {
        try await TestGateway.with { gateway in
            let (merchant, token) = try await gateway.linkedMerchant()
            var profile = try CardProfile.visaTest
            profile.pan = "4761739001010655"  // the test issuer's onlinePINRequired card
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("pin-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: file) }
            try profile.jsonData().write(to: file)
            Self.reader("loopback:\(file.path)")
            let processor = MyPaymentProcessor()
            #expect(processor.reader != nil)

            try await processor.configureDevice(tokenData: token.rawValue)
            let maybeRead = try await processor.readCard(for: 15)
            let readLoopSoFar = try await processor.seen.events(of: "readCard", count: 5)
            let read = try #require(maybeRead, "\(readLoopSoFar)")
            // The sample's reader runs on the real clock; the test gateway's is moved by hand.
            gateway.clock.set(Date())
            let declined = try await gateway.authorize(read, minorUnits: 1_500, for: merchant).get()
            let pinToken = try #require(declined.pinRequest?.pinToken)

            let capture = try #require(try await processor.capturePIN(for: read, with: pinToken))
            #expect(
                try await processor.seen.events(of: "capturePIN", count: 3) == [
                    "pinEntryRequested", "pinEntryCompleted", "userInterfaceDismissed",
                ])
            // The read's loop still runs and saw the PIN capture's events after its own.
            let readLoop = try await processor.seen.events(of: "readCard", count: 8)
            #expect(readLoop.suffix(3) == ["pinEntryRequested", "pinEntryCompleted", "userInterfaceDismissed"])
            gateway.clock.set(Date())
            let paid = try await gateway.submitPIN(capture, pinToken: pinToken, payment: declined.id, for: merchant)
                .get()
            #expect(paid.status == .succeeded)
        }
    }
}
