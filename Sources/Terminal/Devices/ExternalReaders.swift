import Foundation
import SmartCard
import TapToPay

/// External readers through PC/SC: which there are, and a contactless interface on one of them.
///
/// libpcsclite is loaded at run time; without it, or without pcscd, there are simply no external readers.
struct ExternalReaders: Sendable {
    /// The PC/SC reader names, in PC/SC's order; empty when PC/SC is not available.
    static func names() -> [String] {
        guard let context = try? PCSCContext(), let names = try? context.readerNames() else { return [] }
        return names
    }

    /// A contactless interface on the reader `name`, with `pinPad` as its PIN pad.
    /// - Throws: ``TerminalError/Code/deviceNotFound`` when PC/SC is not available or does not list the reader.
    static func interface(
        named name: String, pinPad: @escaping @Sendable (PINEntryRequest) async -> PINEntry
    ) throws(TerminalError) -> PCSCInterface {
        let context: PCSCContext
        let names: [String]
        do {
            context = try PCSCContext()
            names = try context.readerNames()
        } catch {
            throw TerminalError(
                code: .deviceNotFound, message: "PC/SC is not available (\(error.code)): \(error.message)")
        }
        guard names.contains(name) else {
            throw TerminalError(
                code: .deviceNotFound,
                message:
                    "PC/SC has no reader of that name; it has \(names.isEmpty ? "none" : names.joined(separator: ", "))"
            )
        }
        do {
            return try PCSCInterface(readerName: name, pinPad: pinPad)
        } catch {
            throw TerminalError(code: .deviceNotFound, message: "the PC/SC reader could not be opened (\(error.code))")
        }
    }

    /// The device id the PSP knows an external reader by: the phone's id and the reader's name, in the letters,
    /// digits, `-` and `_` device ids allow.
    static func pspDeviceID(phone: String, readerName: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
        let prefix = "\(phone)-pcsc-"
        // The PSP takes at most 64 characters.
        let name = String(readerName.map { allowed.contains($0) ? $0 : "_" }.prefix(max(1, 64 - prefix.count)))
        return prefix + name
    }
}
