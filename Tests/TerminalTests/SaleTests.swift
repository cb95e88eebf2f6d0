import ContactlessTesting
import EMV
import Foundation
import GatewayAPI
import Issuer
import SmartCard
import TapToPay
import Terminal
import Testing
import TestMode

@Suite("Terminal: sales, declines, refunds and verifications against the live gateway", .serialized)
struct SaleTests {
    @Test(
        "an approved sale: its events, and a receipt with the masked PAN, AID, label, auth code and CVM",
        arguments: [TestCard.Scheme.visa, .mastercard])
    func approved(scheme: TestCard.Scheme) async throws {
        try await TestGateway.with { gateway in
            try await gateway.withShop { shop in
                let card = try gateway.card(.approve, scheme)
                let sale = try await shop.sale(card, 12.34)
                try await shop.events.expect([Shop.screen(12.34)] + ReaderSDK.Event.readSucceeded)
                #expect(sale.outcome == .approved && sale.payment?.status == .succeeded)
                #expect(try await gateway.balance(card.card) == TestCards.balance - 1_234)
                let receipt = sale.receipt
                #expect(receipt.maskedPAN == "\(card.card.pan.prefix(6))…\(card.card.pan.suffix(4))")
                #expect(receipt.applicationIdentifier == (scheme == .visa ? "A0000000031010" : "A0000000041010"))
                #expect(receipt.applicationLabel == (scheme == .visa ? "VISA CREDIT" : "MASTERCARD"))
                #expect(
                    receipt.authorizationCode == sale.payment?.issuer?.approvalCode && receipt.authorizationCode != nil)
                #expect(receipt.responseCode == "00" && receipt.outcome == "APPROVED")
                #expect(receipt.amount == 12.34 && receipt.currency == "EUR" && receipt.purpose == .sale)
                #expect(receipt.date == sale.payment?.updatedAt && receipt.transactionID == sale.payment?.id)
                #expect(receipt.scheme == (scheme == .visa ? "visa" : "mastercard"))
                // Under the CVM limit: Kernel 2 reports "no CVM" in 9F34; Kernel 3 reports no CVM results at all.
                #expect(
                    receipt.cardholderVerification == (scheme == .visa ? .unknown : .noCVM),
                    "\(sale.receipt.readID ?? "") \(String(describing: sale.payment))")
                // Nothing shows the PAN.
                let shown = "\(sale) \(receipt) \(receipt.lines)"
                #expect(!shown.contains(card.card.pan))
            }
        }
    }

    @Test("an issuer's decline: declined with the reason and response code, a DECLINED receipt, nothing debited")
    func issuerDecline() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withShop { shop in
                let card = try gateway.card(.insufficientFunds, .mastercard)
                let sale = try await shop.sale(card, 9)
                try await shop.events.expect([Shop.screen(9)] + ReaderSDK.Event.readSucceeded)
                #expect(
                    sale.outcome
                        == .declined(DeclineReason(source: .issuer, code: "insufficientFunds", responseCode: "51")))
                #expect(sale.receipt.outcome == "DECLINED" && sale.receipt.responseCode == "51")
                #expect(sale.receipt.authorizationCode == nil && sale.receipt.maskedPAN != nil)
                #expect(try await gateway.balance(card.card) == TestCards.lowBalance)
                // Another card after a decline: the terminal is ready again.
                #expect(try await shop.sale(try gateway.card(.approve, .visa), 9).isApproved)
            }
        }
    }

    @Test("a card's own decline (AAC): declined by the card, never sent to the PSP, with a receipt from the read")
    func cardDecline() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withShop { shop in
                let card = try gateway.card(.approve, .mastercard)
                await card.channel.presentCard()
                shop.interface.present(OfflineDecline(card: card.channel))
                _ = shop.requests.take()
                let sale = try await shop.sdk.makeSale(PaymentParameters(amount: 6, currency: "EUR"))
                try await shop.events.expect([
                    Shop.screen(6), .reader(.readyForTap), .reader(.cardDetected), .reader(.removeCard),
                    .reader(.readNotCompleted), .reader(.userInterfaceDismissed),
                ])
                #expect(sale.outcome == .declined(DeclineReason(source: .card, code: "declinedByCard")))
                #expect(sale.payment == nil && shop.requests.take().isEmpty)
                #expect(sale.receipt.outcome == "DECLINED" && sale.receipt.maskedPAN == nil)
                #expect(
                    sale.receipt.applicationLabel == "MASTERCARD"
                        && sale.receipt.applicationIdentifier == "A0000000041010")
                #expect(try await gateway.balance(card.card) == TestCards.balance)
            }
        }
    }

    @Test("refund: a refund read credited through the merchant server's card-present refund")
    func refund() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withShop { shop in
                let card = try gateway.card(.approve, .mastercard)
                await shop.interface.tap(card.channel)
                let result = try await shop.sdk.refund(
                    PaymentParameters(amount: 12.50, currency: "EUR"), reason: "returned")
                try await shop.events.expect([Shop.screen(12.50, .refund)] + ReaderSDK.Event.readSucceeded)
                let refund = try #require(result.refund)
                #expect(result.isApproved && result.payment == nil)
                #expect(refund.amount == 1_250 && refund.reason == "returned" && refund.paymentId == nil)
                #expect(result.receipt.purpose == .refund && result.receipt.transactionID == refund.id)
                #expect(result.receipt.maskedPAN?.hasSuffix(String(card.card.pan.suffix(4))) == true)
            }
        }
    }

    @Test("a read without an amount: the card is verified (save card) and authorized for zero")
    func verification() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withShop { shop in
                let card = try gateway.card(.approve, .visa)
                await shop.interface.tap(card.channel)
                let result = try await shop.sdk.verifyCard(currency: "EUR", reason: .saveCard)
                try await shop.events.expect([Shop.screen(0, .verification)] + ReaderSDK.Event.readSucceeded)
                #expect(result.isApproved && result.payment?.kind == .verification && result.payment?.amount == 0)
                #expect(result.payment?.verificationReason == .saveCard && result.receipt.purpose == .verification)
                #expect(try await gateway.balance(card.card) == TestCards.balance)
            }
        }
    }

    @Test("amounts: zero, too many fraction digits, an unknown currency; not connected")
    func invalidParameters() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withShop { shop in
                for parameters in [
                    PaymentParameters(amount: 0, currency: "EUR"), PaymentParameters(amount: -1, currency: "EUR"),
                    PaymentParameters(amount: 1.234, currency: "EUR"), PaymentParameters(amount: 1, currency: "EURO"),
                    PaymentParameters(amount: 1, currency: "XYZ"),
                ] {
                    await #expect(throws: TerminalError.invalidAmount) { try await shop.sdk.makeSale(parameters) }
                }
                try await shop.events.expect([])
                try await shop.sdk.disconnect()
                await #expect(throws: TerminalError.notConnected) {
                    try await shop.sdk.makeSale(PaymentParameters(amount: 1, currency: "EUR"))
                }
            }
        }
    }

    @Test("card data is valid 60 s: a merchant server that authorizes 61 s after the read is refused")
    func cardDataAfter60Seconds() async throws {
        try await TestGateway.with { gateway in
            let slow: @Sendable (GatewayMerchantBackend) -> any MerchantBackend = {
                SlowBackend(base: $0, clock: gateway.clock, authorizationDelay: 61)
            }
            try await gateway.withShop(backend: slow) { shop in
                let card = try gateway.card(.approve, .visa)
                await #expect(throws: GatewayAPIError.cardDataExpired) { try await shop.sale(card, 5) }
                try await shop.events.expect([Shop.screen(5)] + ReaderSDK.Event.readSucceeded)
                #expect(try await gateway.balance(card.card) == TestCards.balance)
            }
        }
    }
}
