public import _SQLStorage
/// The issuer host's tables (prefixed `issuer_`), beside the gateway's in one database or alone in its own: card
/// accounts by keyed PAN hash and the approved authorizations kept for reversals. The PAN is stored only as its keyed
/// hash, its AES-GCM ciphertext and BIN + last four; no track 2, cryptogram or PIN block is ever stored. Version 3
/// adds the token vault's device account numbers, stored the same way; version 4 the wallet transaction data a
/// digitized Mastercard card sends with its cryptogram (the wallet's bytes, not card data); version 5 the
/// digitization service's eligibility answers (funding PAN by keyed hash and ciphertext), digitizations (the one-time
/// code only as its HMAC) and digitized tokens with their highest issued ATC.
public enum IssuerSchema {
    /// The schema's name in `schema_migrations`.
    public static let name = "issuer"

    /// Every step, oldest first. Never edit a released step: add one.
    public static let migrations: [Migration] = [
        Migration(version: 1, name: "card accounts and authorizations") { dialect in
            [
                """
                CREATE TABLE issuer_accounts (
                    keyed_pan \(dialect.blobType) PRIMARY KEY, encrypted_pan \(dialect.blobType) NOT NULL,
                    masked_pan TEXT NOT NULL, status TEXT NOT NULL, expiry_year BIGINT NOT NULL,
                    expiry_month BIGINT NOT NULL, currency TEXT NOT NULL, available_balance BIGINT NOT NULL,
                    per_transaction_limit BIGINT, online_pin_limit BIGINT,
                    requires_strong_customer_authentication BIGINT NOT NULL,
                    pin_verification_value \(dialect.blobType), wrong_pin_count BIGINT NOT NULL,
                    pin_try_limit BIGINT NOT NULL, last_atc BIGINT, simulates_no_response BIGINT NOT NULL)
                """,
                """
                CREATE TABLE issuer_authorizations (
                    stan TEXT NOT NULL, rrn TEXT NOT NULL, terminal_id TEXT NOT NULL,
                    keyed_pan \(dialect.blobType) NOT NULL REFERENCES issuer_accounts (keyed_pan),
                    amount BIGINT NOT NULL, approval_code TEXT NOT NULL, authorized_at BIGINT NOT NULL,
                    reversed BIGINT NOT NULL DEFAULT 0, PRIMARY KEY (stan, rrn, terminal_id))
                """,
                "CREATE INDEX issuer_authorizations_by_account ON issuer_authorizations (keyed_pan)",
            ]
        },
        Migration(version: 2, name: "single tap and PIN: the cryptogram awaiting its PIN") { _ in
            ["ALTER TABLE issuer_accounts ADD COLUMN pin_pending_atc BIGINT"]
        },
        Migration(version: 3, name: "token vault: device account numbers of funding accounts") { dialect in
            [
                """
                CREATE TABLE issuer_device_tokens (
                    keyed_dpan \(dialect.blobType) PRIMARY KEY, encrypted_dpan \(dialect.blobType) NOT NULL,
                    masked_dpan TEXT NOT NULL,
                    funding_keyed_pan \(dialect.blobType) NOT NULL REFERENCES issuer_accounts (keyed_pan),
                    expiry_year BIGINT NOT NULL, expiry_month BIGINT NOT NULL, requestor TEXT NOT NULL,
                    provisioned_at BIGINT NOT NULL, status TEXT NOT NULL, last_atc BIGINT)
                """,
                "CREATE INDEX issuer_device_tokens_by_funding ON issuer_device_tokens (funding_keyed_pan)",
            ]
        },
        Migration(version: 4, name: "wallet transaction data of digitized Mastercard payments") { dialect in
            ["ALTER TABLE issuer_authorizations ADD COLUMN wallet_transaction_data \(dialect.blobType)"]
        },
        Migration(version: 5, name: "digitization: eligibility answers, digitizations, digitized tokens") { dialect in
            [
                """
                CREATE TABLE issuer_eligibilities (
                    id TEXT PRIMARY KEY,
                    funding_keyed_pan \(dialect.blobType) NOT NULL REFERENCES issuer_accounts (keyed_pan),
                    encrypted_funding_pan \(dialect.blobType) NOT NULL, funding_last_four TEXT NOT NULL,
                    wallet_id TEXT NOT NULL, device_id TEXT NOT NULL, scheme TEXT NOT NULL, terms_id TEXT NOT NULL,
                    valid_until BIGINT NOT NULL)
                """,
                """
                CREATE TABLE issuer_digitizations (
                    id TEXT PRIMARY KEY, eligibility_id TEXT NOT NULL REFERENCES issuer_eligibilities (id),
                    code_hash \(dialect.blobType) NOT NULL, code_valid_until BIGINT NOT NULL,
                    tries_left BIGINT NOT NULL, state TEXT NOT NULL, token_id TEXT)
                """,
                """
                CREATE TABLE issuer_digitized_tokens (
                    token_id TEXT PRIMARY KEY,
                    keyed_dpan \(dialect.blobType) NOT NULL REFERENCES issuer_device_tokens (keyed_dpan),
                    wallet_id TEXT NOT NULL, device_id TEXT NOT NULL, highest_issued_atc BIGINT NOT NULL)
                """,
            ]
        },
        // Nothing reads authorizations by account, and accounts are never deleted or rekeyed (the only use the
        // foreign key has for it), while every authorization inserted into it at its card's place in the index:
        // under load a page split and about two and a half WAL pages per authorization.
        Migration(version: 6, name: "drop the unused index of authorizations by account") { _ in
            ["DROP INDEX issuer_authorizations_by_account"]
        },
    ]

    /// The migrator for these steps.
    public static var migrator: Migrator { Migrator(schema: name, migrations: migrations) }
}
