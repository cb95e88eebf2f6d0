public import _SQLStorage
/// The gateway's tables. Times are BIGINT milliseconds since 1970, booleans 0/1, money BIGINT minor units with a
/// TEXT ISO 4217 code; card data only as keyed hashes, BIN + last four, or AES-GCM ciphertext under the data key.
public enum GatewaySchema {
    /// The schema's name in `schema_migrations`.
    public static let name = "gateway"

    /// Every step, oldest first. Never edit a released step: add one.
    public static let migrations: [Migration] = [
        Migration(version: 1, name: "merchants, devices, payments, idempotency, audit") { dialect in
            [
                """
                CREATE TABLE merchants (
                    id TEXT PRIMARY KEY, name TEXT NOT NULL, country TEXT NOT NULL, currency TEXT NOT NULL,
                    category_code TEXT NOT NULL, card_acceptor_id TEXT NOT NULL UNIQUE, created_at BIGINT NOT NULL,
                    terms_accepted_at BIGINT, terms_accepted_by TEXT)
                """,
                """
                CREATE TABLE merchant_users (
                    id TEXT PRIMARY KEY, merchant_id TEXT NOT NULL REFERENCES merchants (id), email TEXT NOT NULL,
                    role TEXT NOT NULL, created_at BIGINT NOT NULL, UNIQUE (merchant_id, email))
                """,
                """
                CREATE TABLE api_keys (
                    id TEXT PRIMARY KEY, merchant_id TEXT NOT NULL REFERENCES merchants (id),
                    secret_hash \(dialect.blobType) NOT NULL UNIQUE, created_at BIGINT NOT NULL, revoked_at BIGINT)
                """,
                """
                CREATE TABLE devices (
                    id TEXT PRIMARY KEY, terminal_id TEXT NOT NULL UNIQUE, provisioned_at BIGINT NOT NULL,
                    pin_key \(dialect.blobType), pin_key_id TEXT, next_stan BIGINT NOT NULL DEFAULT 1)
                """,
                """
                CREATE TABLE device_merchant_uses (
                    device_id TEXT NOT NULL, merchant_id TEXT NOT NULL, last_used_at BIGINT NOT NULL,
                    PRIMARY KEY (device_id, merchant_id))
                """,
                """
                CREATE TABLE payments (
                    id TEXT PRIMARY KEY, merchant_id TEXT NOT NULL REFERENCES merchants (id), device_id TEXT,
                    read_id TEXT UNIQUE, kind TEXT NOT NULL, status TEXT NOT NULL, capture_method TEXT NOT NULL,
                    amount BIGINT NOT NULL, currency TEXT NOT NULL, captured_amount BIGINT NOT NULL DEFAULT 0,
                    refunded_amount BIGINT NOT NULL DEFAULT 0, card_bin TEXT, card_last4 TEXT, card_scheme TEXT,
                    entry_mode TEXT, stan TEXT, rrn TEXT, terminal_id TEXT, response_code TEXT, approval_code TEXT,
                    failure_code TEXT, issuer_authentication_data \(dialect.blobType),
                    pending_card_data \(dialect.blobType), pin_token_hash \(dialect.blobType), pin_deadline BIGINT,
                    wrong_pin_count BIGINT NOT NULL DEFAULT 0, reversal_message \(dialect.blobType),
                    reversal_attempts BIGINT NOT NULL DEFAULT 0, next_reversal_at BIGINT,
                    created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)
                """,
                "CREATE INDEX payments_by_merchant ON payments (merchant_id, created_at)",
                "CREATE INDEX payments_reversal_due ON payments (next_reversal_at)",
                """
                CREATE TABLE refunds (
                    id TEXT PRIMARY KEY, payment_id TEXT REFERENCES payments (id),
                    merchant_id TEXT NOT NULL REFERENCES merchants (id), amount BIGINT NOT NULL,
                    currency TEXT NOT NULL, status TEXT NOT NULL, reason TEXT, card_bin TEXT, card_last4 TEXT,
                    created_at BIGINT NOT NULL)
                """,
                "CREATE INDEX refunds_by_payment ON refunds (payment_id)",
                """
                CREATE TABLE idempotency_keys (
                    merchant_id TEXT NOT NULL, idempotency_key TEXT NOT NULL, request_hash \(dialect.blobType) NOT NULL,
                    response_status BIGINT, response_body \(dialect.blobType), created_at BIGINT NOT NULL,
                    locked_until BIGINT NOT NULL, PRIMARY KEY (merchant_id, idempotency_key))
                """,
                "CREATE TABLE opened_reads (read_id TEXT PRIMARY KEY, expires_at BIGINT NOT NULL)",
                """
                CREATE TABLE audit_log (
                    id \(dialect.autoIncrementKey), at BIGINT NOT NULL, actor TEXT NOT NULL,
                    entity TEXT NOT NULL, entity_id TEXT NOT NULL, action TEXT NOT NULL, detail TEXT NOT NULL)
                """,
                "CREATE INDEX audit_by_entity ON audit_log (entity, entity_id)",
            ]
        },
        Migration(version: 2, name: "why a card was verified") { _ in
            ["ALTER TABLE payments ADD COLUMN verification_reason TEXT"]
        },
        Migration(version: 3, name: "Apple Pay: merchant identities and accepted transactionIds") { dialect in
            [
                """
                CREATE TABLE applepay_identities (
                    id TEXT PRIMARY KEY, merchant_id TEXT NOT NULL REFERENCES merchants (id),
                    public_key_hash TEXT NOT NULL, certificate_pem TEXT NOT NULL,
                    sealed_private_key \(dialect.blobType) NOT NULL, merchant_identifier TEXT,
                    created_at BIGINT NOT NULL, UNIQUE (merchant_id, public_key_hash))
                """,
                "CREATE TABLE applepay_transactions (transaction_id TEXT PRIMARY KEY, expires_at BIGINT NOT NULL)",
                "CREATE INDEX applepay_transactions_by_expiry ON applepay_transactions (expires_at)",
            ]
        },
        Migration(version: 4, name: "indexes for the once-a-second sweep") { _ in
            // The sweep found due reversals through an index holding every payment (each with a NULL), and
            // abandoned payments by reading the whole table; both indexes now hold only the few payments in flight,
            // so a payment's insert no longer adds an entry it never uses. Opened reads are forgotten by expiry.
            [
                "DROP INDEX payments_reversal_due",
                "CREATE INDEX payments_reversal_due ON payments (next_reversal_at) WHERE next_reversal_at IS NOT NULL",
                "CREATE INDEX payments_unfinished ON payments (updated_at) WHERE status IN ('processing', 'requiresPIN')",
                "CREATE INDEX opened_reads_by_expiry ON opened_reads (expires_at)",
            ]
        },
        Migration(version: 5, name: "devices per merchant") { dialect in
            // A device row was one per SDK device id, so a second merchant preparing the same id was handed the
            // first one's terminal id and PIN key. A row is now one merchant's use of a device. Each old row goes to
            // a merchant that used it (from its payments or its merchant uses; e-commerce rows name theirs), keeps
            // its terminal id and STAN, and loses its PIN key: a key that may have been given to two merchants is
            // not trusted, and the device gets a new one at its next prepare.
            [
                """
                CREATE TABLE merchant_devices (
                    merchant_id TEXT NOT NULL REFERENCES merchants (id), id TEXT NOT NULL,
                    terminal_id TEXT NOT NULL UNIQUE, provisioned_at BIGINT NOT NULL, pin_key \(dialect.blobType),
                    pin_key_id TEXT, next_stan BIGINT NOT NULL DEFAULT 1, PRIMARY KEY (merchant_id, id))
                """,
                """
                INSERT INTO merchant_devices (merchant_id, id, terminal_id, provisioned_at, next_stan)
                SELECT owners.merchant_id, devices.id, devices.terminal_id, devices.provisioned_at, devices.next_stan
                FROM devices JOIN (
                    SELECT device_id, MIN(merchant_id) AS merchant_id FROM (
                        SELECT device_id, merchant_id FROM payments WHERE device_id IS NOT NULL
                        UNION SELECT device_id, merchant_id FROM device_merchant_uses
                        UNION SELECT id AS device_id, substr(id, 6) AS merchant_id FROM devices WHERE id LIKE 'ecom\\_%' ESCAPE '\\'
                    ) AS used WHERE merchant_id IN (SELECT id FROM merchants) GROUP BY device_id
                ) AS owners ON owners.device_id = devices.id
                """,
                "DROP TABLE devices",
            ]
        },
        Migration(version: 6, name: "idempotency keys: the payment a key made; expiry by creation time") { _ in
            [
                "ALTER TABLE idempotency_keys ADD COLUMN payment_id TEXT",
                """
                CREATE INDEX idempotency_keys_by_payment ON idempotency_keys (payment_id)
                WHERE payment_id IS NOT NULL AND response_status IS NULL
                """,
                "CREATE INDEX idempotency_keys_by_creation ON idempotency_keys (created_at)",
            ]
        },
        Migration(version: 7, name: "token revocations") { _ in
            [
                """
                CREATE TABLE token_revocations (
                    merchant_id TEXT NOT NULL REFERENCES merchants (id), scope TEXT NOT NULL, subject TEXT NOT NULL,
                    revoked_up_to BIGINT NOT NULL, changed_at BIGINT NOT NULL,
                    PRIMARY KEY (merchant_id, scope, subject))
                """,
                "CREATE INDEX token_revocations_by_change ON token_revocations (changed_at)",
            ]
        },
        Migration(version: 8, name: "data keys wrapped by the key file's key") { dialect in
            [
                """
                CREATE TABLE data_keys (
                    id TEXT PRIMARY KEY, wrapped_key \(dialect.blobType) NOT NULL, created_at BIGINT NOT NULL,
                    activated_at BIGINT NOT NULL)
                """
            ]
        },
        Migration(version: 9, name: "merchant console: passwords, invitations, sessions, login throttling, terms") {
            dialect in
            [
                "ALTER TABLE merchant_users ADD COLUMN password_hash TEXT",
                "ALTER TABLE merchant_users ADD COLUMN deactivated_at BIGINT",
                "ALTER TABLE merchants ADD COLUMN staff_refund_limit BIGINT",
                "ALTER TABLE merchants ADD COLUMN terms_version TEXT",
                "ALTER TABLE api_keys ADD COLUMN name TEXT",
                "ALTER TABLE audit_log ADD COLUMN address TEXT",
                "ALTER TABLE api_keys ADD COLUMN last_used_at BIGINT",
                """
                CREATE TABLE console_invitations (
                    token_hash \(dialect.blobType) PRIMARY KEY, user_id TEXT NOT NULL REFERENCES merchant_users (id),
                    created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, used_at BIGINT)
                """,
                """
                CREATE TABLE console_sessions (
                    id_hash \(dialect.blobType) PRIMARY KEY, user_id TEXT NOT NULL REFERENCES merchant_users (id),
                    merchant_id TEXT NOT NULL, csrf_token TEXT NOT NULL, created_at BIGINT NOT NULL,
                    last_seen_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, address TEXT, user_agent TEXT)
                """,
                "CREATE INDEX console_sessions_by_user ON console_sessions (user_id)",
                """
                CREATE TABLE console_login_failures (
                    subject TEXT PRIMARY KEY, window_started_at BIGINT NOT NULL, failures BIGINT NOT NULL)
                """,
                """
                CREATE TABLE console_submissions (
                    merchant_id TEXT NOT NULL, token TEXT NOT NULL, created_at BIGINT NOT NULL,
                    PRIMARY KEY (merchant_id, token))
                """,
                """
                CREATE TABLE terms_versions (
                    version TEXT PRIMARY KEY, body TEXT NOT NULL, published_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE webhook_endpoints (
                    id TEXT PRIMARY KEY, merchant_id TEXT NOT NULL REFERENCES merchants (id), url TEXT NOT NULL,
                    sealed_secret \(dialect.blobType) NOT NULL, created_at BIGINT NOT NULL, disabled_at BIGINT)
                """,
                """
                CREATE TABLE webhook_events (
                    id TEXT PRIMARY KEY, merchant_id TEXT NOT NULL, type TEXT NOT NULL, payload TEXT NOT NULL,
                    created_at BIGINT NOT NULL)
                """,
                // The outbox: one row per event and endpoint, written in the transaction that changed the payment.
                """
                CREATE TABLE webhook_deliveries (
                    id \(dialect.autoIncrementKey), event_id TEXT NOT NULL, endpoint_id TEXT NOT NULL,
                    merchant_id TEXT NOT NULL, state TEXT NOT NULL, attempts BIGINT NOT NULL DEFAULT 0,
                    next_attempt_at BIGINT, last_status BIGINT, last_error TEXT, created_at BIGINT NOT NULL,
                    delivered_at BIGINT)
                """,
                "CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending'",
                "CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, id)",
                """
                CREATE TABLE webhook_attempts (
                    delivery_id BIGINT NOT NULL, attempt BIGINT NOT NULL, at BIGINT NOT NULL, status BIGINT,
                    error TEXT, response TEXT, duration_ms BIGINT NOT NULL, PRIMARY KEY (delivery_id, attempt))
                """,
                // The console's filters, each newest first within a merchant.
                "CREATE INDEX payments_by_status ON payments (merchant_id, status, created_at)",
                "CREATE INDEX payments_by_last4 ON payments (merchant_id, card_last4, created_at)",
                "CREATE INDEX payments_by_bin ON payments (merchant_id, card_bin, created_at)",
                "CREATE INDEX payments_by_device ON payments (merchant_id, device_id, created_at)",
            ]
        },
        // A receipt link's token is a capability to read one masked receipt, like a PSP's receipt URL: stored as it is.
        Migration(version: 10, name: "point of sale: receipt links, alternatives when a tap fails, loyalty pass") {
            _ in
            [
                "ALTER TABLE merchants ADD COLUMN pos_alternatives TEXT",
                "ALTER TABLE merchants ADD COLUMN pos_loyalty_pass TEXT",
                """
                CREATE TABLE pos_receipts (
                    token TEXT PRIMARY KEY, merchant_id TEXT NOT NULL, payment_id TEXT NOT NULL UNIQUE,
                    created_at BIGINT NOT NULL)
                """,
            ]
        },
    ]

    /// The migrator for these steps.
    public static var migrator: Migrator { Migrator(schema: name, migrations: migrations) }
}
