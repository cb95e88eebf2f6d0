import EMV
public import Foundation
public import Gateway
public import _SQLStorage

/// A merchant as its own server knows it after onboarding: ids, an API key, an admin and a staff user — made in the
/// database the way `tap merchant` makes them (not linked to any device: that is a reader's job).
public struct TestMerchant: Sendable {
    /// The merchant's id.
    public var id: String
    /// The API key of the merchant's server.
    public var apiKey: String
    /// The admin user (may link the account on a device).
    public var adminId: String
    /// A staff user (may take payments, not link).
    public var staffId: String

    /// Onboards a German grocery merchant named `name` (EUR, MCC 5411) with an admin, a staff user and an API key.
    public static func onboard(
        _ name: String = "Corner Shop", in database: any SQLDatabase, actor: String = "test", now: Date = Date()
    ) async throws -> TestMerchant {
        let merchant = try await MerchantRepository(database: database).create(
            name: name, country: .deu, currency: .eur, categoryCode: "5411", actor: actor, now: now)
        let users = MerchantUserRepository(database: database)
        let admin = try await users.add(
            merchantId: merchant.id, email: "owner@\(merchant.id).example", role: .admin, actor: actor, now: now)
        let staff = try await users.add(
            merchantId: merchant.id, email: "clerk@\(merchant.id).example", role: .staff, actor: actor, now: now)
        let (_, secret) = try await APIKeyRepository(database: database).create(
            merchantId: merchant.id, actor: actor, now: now)
        return TestMerchant(id: merchant.id, apiKey: secret.value, adminId: admin.id, staffId: staff.id)
    }
}
