public import EMV
public import Foundation
public import GatewayAPI
public import _SQLStorage

/// Merchants and their account link (Terms and Conditions), in SQL over any ``SQLDatabase``.
public struct MerchantRepository: Sendable {
    private let database: any SQLDatabase

    /// Creates the repository.
    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// Creates a merchant with a new id and a new unique card acceptor id (ISO 8583 field 42).
    /// - Throws: ``DomainError`` for a bad name or category code; ``StorageError``.
    public func create(
        name: String, country: Country, currency: Currency, categoryCode: String = Merchant.defaultCategoryCode,
        actor: String, now: Date = Date()
    ) async throws -> Merchant {
        try Merchant.validate(name: name, categoryCode: categoryCode)
        // A random 15-character id can collide with a taken one: try again with another.
        for attempt in 1...5 {
            let merchant = Merchant(
                id: EntityID.make("mer"), name: name.trimmingCharacters(in: .whitespaces), country: country,
                currency: currency, categoryCode: categoryCode, cardAcceptorId: "CL" + EntityID.digits(13),
                createdAt: now)
            do {
                try await database.transaction { executor in
                    try await executor.query(
                        """
                        INSERT INTO merchants (id, name, country, currency, category_code, card_acceptor_id, created_at)
                        VALUES ($1, $2, $3, $4, $5, $6, $7)
                        """,
                        [
                            .text(merchant.id), .text(merchant.name), .text(country.alpha2),
                            .text(currency.alphabeticCode), .text(categoryCode), .text(merchant.cardAcceptorId),
                            .integer(now.millis),
                        ])
                    try await AuditLog.record(
                        on: executor, at: now, actor: actor, entity: "merchant", id: merchant.id,
                        action: "created",
                        detail:
                            "country \(country.alpha2), currency \(currency), MCC \(categoryCode), card acceptor id \(merchant.cardAcceptorId)"
                    )
                }
                return merchant
            } catch StorageError.uniqueViolation where attempt < 5 {
                continue
            }
        }
        throw StorageError(.uniqueViolation, "no free card acceptor id found")
    }

    /// The merchant with `id`, or nil.
    public func merchant(id: String) async throws -> Merchant? {
        try await Self.merchant(id: id, on: database, lock: false)
    }

    /// Every merchant, oldest first.
    public func all() async throws -> [Merchant] {
        try await database.query("SELECT * FROM merchants ORDER BY created_at, id").map(Self.decode)
    }

    /// Accepts the Terms and Conditions for the caller's merchant (a reader token), if ``AccountLinkRule`` allows.
    /// - Throws: ``GatewayAPIError`` (`adminRequired`, `accountAlreadyLinked`, `relinkNotAllowed`, `notFound`);
    ///   ``StorageError``.
    public func link(
        by caller: Caller, deviceId: String, relink: Bool, termsVersion: String? = nil, now: Date = Date()
    ) async throws -> Merchant {
        try await database.transaction { executor in
            guard var merchant = try await Self.merchant(id: caller.merchantId, on: executor, lock: true) else {
                throw GatewayAPIError(code: .notFound, message: "the token's merchant does not exist")
            }
            try AccountLinkRule.check(caller: caller, relink: relink, isLinked: merchant.isAccountLinked)
            merchant.termsAcceptedAt = Date(millis: now.millis)
            merchant.termsAcceptedBy = caller.userId
            try await executor.query(
                "UPDATE merchants SET terms_accepted_at = $1, terms_accepted_by = $2, terms_version = $3 WHERE id = $4",
                [.integer(now.millis), .text(caller.userId), .text(termsVersion), .text(merchant.id)])
            try await AuditLog.record(
                on: executor, at: now, actor: caller.auditActor, entity: "merchant", id: merchant.id,
                action: relink ? "termsReaccepted" : "termsAccepted",
                detail: (deviceId == "console" ? "in the console" : "on device \(deviceId)")
                    + (termsVersion.map { ", version \($0)" } ?? ""))
            return merchant
        }
    }

    static func merchant(id: String, on executor: any SQLExecutor, lock: Bool) async throws -> Merchant? {
        let suffix = lock ? executor.dialect.forUpdate : ""
        return try await executor.query("SELECT * FROM merchants WHERE id = $1" + suffix, [.text(id)]).first.map(decode)
    }

    private static func decode(_ row: SQLRow) throws -> Merchant {
        let country = try row.text("country")
        let currency = try row.text("currency")
        guard let countryValue = Country(alpha2: country), let currencyValue = Currency(alphabeticCode: currency) else {
            throw StorageError(.corruptRow, "a merchant's country or currency is not an ISO code")
        }
        return Merchant(
            id: try row.text("id"), name: try row.text("name"), country: countryValue, currency: currencyValue,
            categoryCode: try row.text("category_code"), cardAcceptorId: try row.text("card_acceptor_id"),
            createdAt: Date(millis: try row.integer("created_at")),
            termsAcceptedAt: try row.optionalInteger("terms_accepted_at").map(Date.init(millis:)),
            termsAcceptedBy: try row.optionalText("terms_accepted_by"))
    }
}
