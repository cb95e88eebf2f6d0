import Foundation
import TapToPay

extension CheckoutStep {
    /// The line the app's screen would show, or nil for a step that shows nothing new.
    func line(style: ConsoleStyle) -> String? {
        switch self {
        case .linked(let admin):
            ConsoleStyle.row("Account", "linked on this iPhone by the merchant's admin \(admin) (terms accepted)")
        case .prepared: ConsoleStyle.row("Reader", "prepared")
        case .waitingForCard(let amount):
            ConsoleStyle.row("Charge", style.bold(amount) + ": the customer taps the card on the phone")
        case .read(let aid): ConsoleStyle.row("Card read", "application \(aid), card data sealed to the PSP")
        case .pinRequested:
            ConsoleStyle.row("PIN", "the issuer asks for the PIN: the customer enters it on the phone's PIN pad")
        case .loyalty(let member?):
            ConsoleStyle.row(
                "Loyalty pass", "read in the same tap; the merchant's server decrypted member \(style.bold(member))")
        case .loyalty(nil): ConsoleStyle.row("Loyalty pass", "none on the phone")
        case .authorized(let status):
            ConsoleStyle.row(
                "Merchant's server → PSP", "payment \(status == "succeeded" ? style.green(status) : style.red(status))")
        case .event(.updateProgress(let percent)):
            ConsoleStyle.row("Preparing the reader", Self.bar(percent) + " \(percent)%")
        case .event(let event): style.dim("    ▸ \(event.name)")
        }
    }

    private static func bar(_ percent: Int) -> String {
        let filled = max(0, min(20, percent / 5))
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled) + "]"
    }
}

extension CheckoutReport {
    /// The title printed before the steps.
    static func title(path: Checkout.Path, style: ConsoleStyle) -> String {
        let story =
            switch path {
            case .approval: "a card the issuer approves"
            case .onlinePIN: "a card whose issuer asks for the PIN online"
            case .decline: "a card the issuer declines"
            }
        return style.bold("Contactless demo: a Tap to Pay checkout with \(story)") + "\n"
            + style.dim(
                "  (in this process: TapToPay reader, EMV kernel, test card, PSP gateway on SQLite, issuer host)")
    }

    /// The result and the receipt, or the decline and what to offer instead.
    func text(style: ConsoleStyle) -> String {
        var lines = [""]
        lines.append(style.bold("Result"))
        lines.append(ConsoleStyle.row("Payment", "\(authorization.status) \(authorization.paymentId)"))
        lines.append(
            ConsoleStyle.row(
                "Issuer response",
                (authorization.responseCode ?? "none")
                    + (authorization.approvalCode.map { ", approval code \($0)" } ?? "")))
        lines.append(ConsoleStyle.row("ARPC for the card", authorization.arpcReturned ? "returned" : "none"))
        lines.append(ConsoleStyle.row("Reader events", events.joined(separator: " ")))
        if let loyalty {
            lines.append(
                ConsoleStyle.row("Loyalty", "\(loyalty.passTypeIdentifier): member \(loyalty.memberId ?? "none")"))
        }
        if let receipt {
            lines.append("")
            lines.append(style.bold("Receipt"))
            lines.append("    \(receipt.merchant)")
            lines.append("    \(receipt.date)")
            lines.append("    \(receipt.card) (\(receipt.entryMode))")
            if let aid = receipt.aid { lines.append("    AID \(aid)") }
            lines.append("    PURCHASE \(receipt.amount)")
            lines.append("    " + style.green("APPROVED") + (receipt.approvalCode.map { "  auth code \($0)" } ?? ""))
            lines.append("    Verification: \(receipt.verification)")
            lines.append("    Reference \(receipt.reference)")
        }
        if let decline {
            lines.append("")
            lines.append(style.bold(style.red("Declined: \(decline.reason)")))
            lines.append("  What the merchant can offer:")
            lines.append(contentsOf: decline.alternatives.map { "    - \($0)" })
        }
        return lines.joined(separator: "\n")
    }
}
