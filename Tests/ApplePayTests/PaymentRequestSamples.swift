import ApplePay
import Foundation

/// Requests and wallets the request and authorization tests share.
enum PaymentRequestSamples {
    /// A valid request: two items, a total, two shipping methods.
    static var basic: PaymentRequest {
        var request = PaymentRequest(
            merchantIdentifier: "merchant.dev.contactless.test", countryCode: "US", currencyCode: "USD",
            supportedNetworks: [.visa, .masterCard], merchantCapabilities: [.threeDSecure, .credit, .debit],
            paymentSummaryItems: [.item("Book", 20), .item("Shipping", 5), .item("Contactless Books", 25)])
        request.shippingMethods = [
            ShippingMethod(identifier: "ground", label: "Ground", amount: 5, detail: "3-5 days"),
            ShippingMethod(identifier: "air", label: "Air", amount: 15, detail: "Tomorrow"),
        ]
        return request
    }

    /// The request example the CLI validates, at Examples/ApplePay/payment-request.json.
    static var exampleURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/ApplePay/payment-request.json")
    }

    static let managementURL = URL(string: "https://shop.example/account")!

    static let visaDebit = SimulatedWallet.Card(
        id: "visa-debit", network: .visa, type: .debit, displayName: "Visa 0002", issuerCountryCode: "US",
        billingContact: Contact(
            name: PersonNameComponents(givenName: "Ada", familyName: "Lovelace"),
            postalAddress: PostalAddress(
                street: "1 Infinite Loop", city: "Cupertino", state: "CA", postalCode: "95014-2083",
                country: "United States", isoCountryCode: "US"),
            emailAddress: "ada@example.com", phoneNumber: "+1 408 555 0100"))
    static let mastercardCredit = SimulatedWallet.Card(
        id: "mc-credit", network: .masterCard, type: .credit, displayName: "Mastercard 4444",
        issuerCountryCode: "US")
    static let amexCredit = SimulatedWallet.Card(
        id: "amex", network: .amex, type: .credit, displayName: "AmEx 1005", issuerCountryCode: "US")

    static var wallet: SimulatedWallet { SimulatedWallet(cards: [visaDebit, mastercardCredit, amexCredit]) }

    /// A full shipping contact: everything that redaction must hide.
    static let shippingContact = Contact(
        name: PersonNameComponents(givenName: "Grace", familyName: "Hopper"),
        postalAddress: PostalAddress(
            street: "221B Baker Street", subLocality: "Marylebone", city: "London",
            subAdministrativeArea: "Greater London", state: "England", postalCode: "NW1 6XE",
            country: "United Kingdom", isoCountryCode: "GB"),
        emailAddress: "grace@example.com", phoneNumber: "+44 20 7946 0000")
}
