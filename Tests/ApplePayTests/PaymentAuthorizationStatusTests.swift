import ApplePay
import EMV
import Foundation
import Testing

@Suite("PaymentAuthorizationStatus: the older didAuthorizePayment statuses")
struct PaymentAuthorizationStatusTests {
    typealias Samples = PaymentRequestSamples

    /// A status, the result it maps onto, and the error (code and contact field) that result carries, if any.
    static let mappings:
        [(PaymentAuthorizationStatus, PaymentAuthorizationResult.Status, PaymentError.Code?, ContactField?)] = [
            (.success, .success, nil, nil),
            (.failure, .failure, nil, nil),
            (.invalidBillingPostalAddress, .failure, .billingContactInvalid, .postalAddress),
            (.invalidShippingPostalAddress, .failure, .shippingContactInvalid, .postalAddress),
            (.invalidShippingContact, .failure, .shippingContactInvalid, nil),
            (.pinRequired, .failure, nil, nil),
            (.pinIncorrect, .failure, nil, nil),
            (.pinLockout, .failure, nil, nil),
        ]

    @Test("each status maps onto today's result", arguments: mappings)
    func mapping(
        status: PaymentAuthorizationStatus, expected: PaymentAuthorizationResult.Status, code: PaymentError.Code?,
        field: ContactField?
    ) {
        let result = PaymentAuthorizationResult(status)
        #expect(result.status == expected)
        #expect(result.errors.map(\.code) == (code.map { [$0] } ?? []))
        #expect(result.errors.first?.contactField == field)
    }

    @Test("every PassKit status, with PassKit's raw values")
    func rawValues() {
        #expect(PaymentAuthorizationStatus.allCases.count == Self.mappings.count)
        #expect(PaymentAuthorizationStatus(rawValue: 0) == .success)
        #expect(PaymentAuthorizationStatus(rawValue: 2) == .invalidBillingPostalAddress)
        #expect(PaymentAuthorizationStatus(rawValue: 4) == .invalidShippingContact)
        #expect(PaymentAuthorizationStatus(rawValue: 7) == .pinLockout)
        #expect(PaymentAuthorizationStatus(rawValue: 8) == nil)
    }

    @Test("a merchant answering invalidShippingPostalAddress keeps the sheet open until the address changes")
    func invalidShippingAddressInTheSheet() async throws {
        let (controller, merchant, tokens) = PaymentAuthorizationControllerTests.make()
        try await controller.present()
        await merchant.answerNextAuthorization(.invalidShippingPostalAddress)
        try await controller.perform(.authorize)
        #expect(await controller.phase == .presented)
        #expect(await controller.errors == [PaymentError.shippingContactInvalid])
        #expect(await controller.errors.first?.contactField == .postalAddress)
        // The error stands until the customer fixes the address.
        await #expect(throws: AuthorizationError.unresolvedErrors) { try await controller.perform(.authorize) }
        try await controller.perform(.selectShippingContact(Samples.shippingContact))
        await merchant.answerNextAuthorization(.success)
        try await controller.perform(.authorize)
        guard case .authorized = await controller.outcome else {
            Issue.record("not authorized: \(await controller.outcome)")
            return
        }
        #expect(await tokens.requests.count == 2)
        #expect(await merchant.paymentsSeen.count == 2)
    }

    @Test("a merchant answering pinRequired leaves the sheet open for another authorization")
    func pinRequiredInTheSheet() async throws {
        let (controller, merchant, _) = PaymentAuthorizationControllerTests.make()
        try await controller.present()
        await merchant.answerNextAuthorization(.pinRequired)
        try await controller.perform(.authorize)
        #expect(await controller.phase == .presented)
        #expect(await controller.errors.isEmpty)
        try await controller.perform(.authorize)
        #expect(await controller.phase == .finished)
        #expect(await merchant.paymentsSeen.count == 2)
    }
}
