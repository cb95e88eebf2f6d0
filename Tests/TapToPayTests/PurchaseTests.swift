import ContactlessTesting
import EMV
import Foundation
import GatewayAPI
import Issuer
import SmartCard
import TapToPay
import Testing
import TestMode

@Suite("TapToPay: link, prepare, read and authorize against the live gateway", .serialized)
struct PurchaseTests {
    typealias ReadError = PaymentCardReaderSession.ReadError

    @Test("success: first prepare shows progress, a purchase read is sealed and the PSP approves it")
    func purchase() async throws {
        try await TestGateway.with { gateway in
            let merchant = try await gateway.merchant()
            let token = try await gateway.token(merchant)
            let interface = LoopbackInterface()
            let reader = gateway.reader(interface: interface)
            #expect(reader.environment.interface != nil)
            try await EventRecorder.watch(reader) { events in
                #expect(try await reader.isAccountLinked(using: token) == false)
                try await reader.linkAccount(using: token)
                #expect(try await reader.isAccountLinked(using: token))
                let session = try await reader.prepare(using: token)
                try await events.expectNext([
                    .updateProgress(0), .updateProgress(25), .updateProgress(50), .updateProgress(75),
                    .updateProgress(100),
                ])

                let card = try gateway.card(.approve, .visa)
                await interface.tap(card.channel)
                let read = try await session.readPaymentCard(
                    PaymentCardTransactionRequest(amount: 12.34, currencyCode: "EUR"))
                try await events.expectNext(Till.readEvents)
                #expect(read.outcome == .success && !read.isPINFallback && !read.pinBypassed)
                #expect(read.applicationTypeIdentifier == "A0000000031010")
                let sealed = try read.sealedCardData()
                #expect(sealed.readId.uuidString.lowercased() == read.id && sealed.merchantId == merchant.id)
                #expect(sealed.deviceId == reader.environment.deviceID)
                // Nothing on the device shows the PAN.
                #expect(
                    !read.description.contains(card.card.pan) && !(read.paymentCardData ?? "").contains(card.card.pan))
                let general = try read.generalTLV()
                #expect(general.first(.amountAuthorised).map { Array($0.value) } == [0, 0, 0, 0, 0x12, 0x34])
                #expect(general.first(.applicationPAN) == nil && general.first(.track2EquivalentData) == nil)

                let payment = try await gateway.authorize(read, minorUnits: 1_234, for: merchant).get()
                #expect(payment.status == .succeeded && payment.card?.last4 == String(card.card.pan.suffix(4)))
                #expect(payment.readId?.uuidString.lowercased() == read.id)
                #expect(try await gateway.balance(card.card) == TestCards.balance - 1_234)
                // The same read cannot pay twice.
                await #expect(throws: GatewayAPIError.cardDataReplayed) {
                    try await gateway.authorize(read, minorUnits: 1_234, for: merchant).get()
                }

                // A later prepare of the device is silent, and its session reads as well.
                let again = try await reader.prepare(using: token)
                await interface.tap(card.channel)
                _ = try await again.readPaymentCard(PaymentCardTransactionRequest(amount: 1, currencyCode: "EUR"))
                try await events.expectRest(Till.readEvents)
            }
        }
    }

    @Test(
        "decline: the read succeeds, the PSP declines with the issuer's reason, the app maps it to paymentCardDeclined")
    func issuerDecline() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withTill { till in
                let card = try gateway.card(.insufficientFunds, .mastercard)
                let balance = try await gateway.balance(card.card)
                let read = try await till.read(card, PaymentCardTransactionRequest(amount: 9, currencyCode: "EUR"))
                try await till.events.expectRest(Till.readEvents)
                let payment = try await gateway.authorize(read, minorUnits: 900, for: till.merchant).get()
                #expect(payment.status == .declined && payment.failureCode == "insufficientFunds")
                // Where Apple's flow reports the decline, the app does: the same error a card's decline throws.
                #expect(throws: ReadError.paymentCardDeclined) { try MerchantApp.check(payment) }
                #expect(try await gateway.balance(card.card) == balance)
            }
        }
    }

    @Test(
        "a card that declines offline (AAC): paymentCardDeclined, or with includeErrorInReadResult a cardDeclined result",
        arguments: [false, true])
    func cardDecline(includeError: Bool) async throws {
        try await TestGateway.with { gateway in
            let options = PaymentCardReader.Options(
                includeErrorInReadResult: includeError, returnReadResultImmediately: false)
            try await gateway.withTill(options: options) { till in
                let card = try gateway.card(.approve, .mastercard)
                await card.channel.presentCard()
                till.interface.present(DecliningCard(base: card.channel))
                let request = PaymentCardTransactionRequest(amount: 5, currencyCode: "EUR")
                if includeError {
                    let read = try await till.session.readPaymentCard(request)
                    #expect(read.outcome == .cardDeclined && read.paymentCardData != nil)
                } else {
                    await #expect(throws: ReadError.paymentCardDeclined) {
                        try await till.session.readPaymentCard(request)
                    }
                }
                try await till.events.expectRest([
                    .readyForTap, .cardDetected, .removeCard, .readNotCompleted, .userInterfaceDismissed,
                ])
            }
        }
    }

    @Test("reads without an amount: a verification for each reason, authorized for zero")
    func verification() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withTill { till in
                let card = try gateway.card(.approve, .visa)
                for reason in PaymentCardVerificationRequest.Reason.allCases {
                    await till.interface.tap(card.channel)
                    let read = try await till.session.readPaymentCard(
                        PaymentCardVerificationRequest(currencyCode: "EUR", for: reason))
                    try await till.events.expectNext(Till.readEvents)
                    let payment = try await gateway.authorize(
                        read, minorUnits: 0, for: till.merchant, kind: .verification,
                        reason: VerificationReason(rawValue: reason.rawValue)
                    ).get()
                    #expect(payment.status == .succeeded && payment.kind == .verification && payment.amount == 0)
                    #expect(payment.verificationReason?.rawValue == reason.rawValue)
                    gateway.clock.advance(by: 1)
                }
                #expect(try await gateway.balance(card.card) == TestCards.balance)
            }
        }
    }

    @Test("refunds: a refund read is credited through a card-present refund")
    func refund() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withTill { till in
                let card = try gateway.card(.approve, .mastercard)
                let read = try await till.read(
                    card, PaymentCardTransactionRequest(amount: 12.50, currencyCode: "EUR", for: .refund))
                try await till.events.expectRest(Till.readEvents)
                let general = try read.generalTLV()
                #expect(general.first(.transactionType).map { Array($0.value) } == [0x20])
                let refund = try await gateway.refund(read, minorUnits: 1_250, for: till.merchant).get()
                #expect(refund.amount == 1_250 && refund.paymentId == nil)
                #expect(refund.card?.last4 == String(card.card.pan.suffix(4)))
            }
        }
    }

    @Test("card data is valid 60 s: authorized after 61 s it is refused as expired")
    func cardDataExpires() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withTill { till in
                let card = try gateway.card(.approve, .visa)
                let request = PaymentCardTransactionRequest(amount: 3, currencyCode: "EUR")
                let late = try await till.read(card, request)
                let onTime = try await till.read(card, request)
                // 59 s, not 60: the date travels as a floating-point number of seconds and may come back a hair later.
                gateway.clock.advance(by: 59)
                #expect(
                    try await gateway.authorize(onTime, minorUnits: 300, for: till.merchant).get().status == .succeeded)
                gateway.clock.advance(by: 2)
                await #expect(throws: GatewayAPIError.cardDataExpired) {
                    try await gateway.authorize(late, minorUnits: 300, for: till.merchant).get()
                }
            }
        }
    }
}

/// What the merchant app does with its PSP's answer.
enum MerchantApp {
    /// Apple's flow reports an issuer's decline as `paymentCardDeclined`; so does the app.
    static func check(_ payment: Payment) throws {
        if payment.status == .declined {
            throw PaymentCardReaderSession.ReadError.paymentCardDeclined
        }
    }
}

extension PaymentCardReadResult {
    /// The general card data, parsed.
    func generalTLV() throws -> TLVNodeCollection {
        let text = try #require(generalCardData)
        return try TLV.parse(Array(try #require(Data(base64Encoded: text))))
    }
}
