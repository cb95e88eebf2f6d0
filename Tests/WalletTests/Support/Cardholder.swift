import Foundation
import Wallet

/// The human at the phone: answers the device's authentication prompt as the test says. The only fake besides the
/// clock (the device's biometric sensor stands behind it).
final class Cardholder: @unchecked Sendable {
    private let lock = NSLock()
    private var answer: UserAuthenticationResult = .success
    private var prompts: [String] = []

    /// Answers the next prompts with `result`.
    func willAnswer(_ result: UserAuthenticationResult) { lock.withLock { answer = result } }

    /// The prompts shown so far.
    var promptsShown: [String] { lock.withLock { prompts } }

    func authenticate(_ reason: String) -> UserAuthenticationResult {
        lock.withLock {
            prompts.append(reason)
            return answer
        }
    }
}

/// The phone's switches the operating system owns (NFC permission, eligibility, integrity) and its screen's
/// emulation sheet.
final class Phone: @unchecked Sendable {
    private let lock = NSLock()
    private var unsafeReason: String?
    private var updates: [EmulationSheetUpdate] = []

    /// Makes the integrity check fail (or pass again with nil).
    func compromise(_ reason: String?) { lock.withLock { unsafeReason = reason } }

    var integrity: String? { lock.withLock { unsafeReason } }

    /// What the system's emulation sheet was told so far, in order.
    var sheetUpdates: [EmulationSheetUpdate] { lock.withLock { updates } }

    /// The text the emulation sheet shows now; nil when it is not up.
    var sheetText: String? {
        lock.withLock {
            var text: String?
            for update in updates {
                switch update {
                case .presented(let message), .alertMessageChanged(let message): text = message
                case .dismissed: text = nil
                }
            }
            return text
        }
    }

    func updateSheet(_ update: EmulationSheetUpdate) { lock.withLock { updates.append(update) } }
}
