import EMV
import Foundation
import ReaderKernel

extension TransactionReport {
    /// The transaction as a person follows it: the card and reader, each APDU with its decoded response, the kernel's
    /// decisions, the outcome and the issuer's check. `trace` adds the raw (masked) bytes of every exchange.
    func text(style: ConsoleStyle, trace: Bool) -> String {
        var lines: [String] = []
        switch setting {
        case .loopback:
            lines.append(
                style.bold("Contactless demo: a \(amount) purchase with the \(card), on the in-process loopback"))
        case .reader(let name, _, _):
            lines.append(style.bold("Contactless purchase: \(amount) with the card in PC/SC reader \"\(name)\""))
        }
        lines.append("")
        switch setting {
        case .loopback:
            lines.append(row("Card", "\(card)" + (paymentKeysBefore.map { ", \($0) payment keys on the phone" } ?? "")))
        case .reader(_, let atr, let transport):
            lines.append(row("Card", "\(card), ATR \(atr.hexString), \(transport)"))
        }
        if let cardholderVerifiedOnPhone {
            lines.append(
                row(
                    "Wallet",
                    cardholderVerifiedOnPhone
                        ? "cardholder verified on the phone before the tap (CDCVM)"
                        : "no cardholder verification on the phone"))
        }
        if let limits { lines.append(row("Reader", limits)) }

        lines.append("")
        lines.append(style.bold("Card and reader talk (ISO 7816-4 APDUs; card data masked)"))
        for (number, exchange) in zip(1..., exchanges) {
            let summary = apdus[number - 1]
            lines.append(style.cyan("\(number). → \(summary.name)") + style.dim("  \(summary.command)"))
            guard let response = exchange.response else {
                lines.append(
                    style.red("   ← no response: \(summary.errorMessage ?? summary.error ?? "transport error")"))
                continue
            }
            let status = "\(response.statusWord)"
            lines.append("   ← " + (response.isSuccess ? style.green(status) : style.yellow(status)))
            if trace, let raw = summary.response, !raw.isEmpty { lines.append(style.dim("     \(raw)")) }
            if !response.data.isEmpty {
                let tree = printer.format(bytes: response.data)
                lines += tree.split(separator: "\n").map { "     " + $0 }
            }
        }

        lines.append("")
        lines.append(style.bold("Kernel decisions"))
        lines += decisions.map { "  • \($0)" }

        lines.append("")
        let approvedOrOnline =
            outcome == Outcome.Status.onlineRequest.rawValue || outcome == Outcome.Status.approved.rawValue
        lines.append(row("Outcome", (approvedOrOnline ? style.green : style.yellow)(outcome) + " — \(reason)"))
        if let userInterface { lines.append(row("Reader shows", userInterface)) }
        if let kernel { lines.append(row("Kernel", kernel)) }
        if let aid { lines.append(row("Application", aid)) }
        if let panMasked { lines.append(row("Card number", panMasked)) }
        lines.append(row("Offline data authentication", oda))
        lines.append(row("Cardholder verification", cvm))
        if let cryptogramType, let arqc, let atc {
            lines.append(row("Cryptogram", "\(cryptogramType) \(arqc), ATC \(atc)"))
        }
        if let paymentKeysBefore, let paymentKeysAfter {
            lines.append(row("Payment keys left", "\(paymentKeysAfter) (of \(paymentKeysBefore))"))
        }

        if let arqcVerified, let tamperedAmountRejected {
            lines.append("")
            lines.append(style.bold("Issuer (test issuer master keys, \(cryptogramVersion ?? "?"))"))
            lines.append(row("ARQC verifies", yesNo(arqcVerified, expected: true, style: style)))
            lines.append(
                row(
                    "ARQC verifies for amount + 1 minor unit",
                    yesNo(!tamperedAmountRejected, expected: false, style: style)))
        }
        if let gateway {
            lines.append("")
            lines.append(style.bold("Gateway (in this process: sealed card data, ISO 8583 to the issuer host, SQLite)"))
            let succeeded = gateway.status == "succeeded"
            lines.append(row("Payment", (succeeded ? style.green : style.yellow)(gateway.status)
                + (gateway.paymentId.map { " \($0)" } ?? "")))
            if let card = gateway.card { lines.append(row("Card on the payment", card)) }
            if let code = gateway.responseCode {
                lines.append(row("Issuer response", code + (gateway.approvalCode.map { ", approval code \($0)" } ?? "")))
                lines.append(row("ARPC for the card", gateway.arpcReturned ? "returned" : "none"))
            }
        }
        return lines.joined(separator: "\n")
    }

    private func row(_ label: String, _ value: String) -> String { ConsoleStyle.row(label, value) }

    private func yesNo(_ value: Bool, expected: Bool, style: ConsoleStyle) -> String {
        let text = value ? "yes" : "no"
        return value == expected ? style.green(text) : style.red(text)
    }
}
