import ArgumentParser
import EMV
import Foundation
import Gateway
import GatewayAPI
import Logging
import _SQLStorage

extension Tap {
    /// Manages the gateway's merchants, their users and API keys, directly in its database.
    struct MerchantCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merchant",
            abstract: "Create and list the gateway's merchants, their users and API keys.",
            discussion: """
                Works directly on the gateway's database: the SQLite file under --data-dir (default ./.tap), or \
                PostgreSQL with --database postgres://…, migrated first. Every change is written to the audit log.
                """,
            subcommands: [Create.self, List.self, User.self, Key.self, ApplePayCert.self]
        )
    }
}

/// Where the gateway's database is, and how to print.
struct GatewayStoreOptions: ParsableArguments {
    @Option(help: "The gateway's data directory (SQLite file gateway.sqlite, keys.json).")
    var dataDir: String = GatewayDatabase.defaultDataDirectory
    @Option(help: "A postgres:// URL to use PostgreSQL instead of the SQLite file.") var database: String?
    @Flag(help: "Print JSON.") var json = false

    /// Runs `body` with the migrated database, closing it afterwards.
    func withDatabase<Result: Sendable>(_ body: (any SQLDatabase) async throws -> Result) async throws -> Result {
        // Failures reach the user as the command's error; the pool's own chatter (a statement queued while its
        // service starts) is not for them.
        var logger = Logger(label: "tap.merchant")
        logger.logLevel = .error
        do {
            return try await GatewayDatabase.with(
                dataDirectory: URL(fileURLWithPath: dataDir, isDirectory: true), databaseURL: database, logger: logger,
                body)
        } catch let error as StorageError {
            throw CommandFailure(error.message)
        } catch let error as DomainError {
            throw CommandFailure(error.message)
        }
    }

    /// Prints `value` as the API's JSON (ISO 8601 dates), pretty.
    func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder.gatewayAPI
        encoder.outputFormatting.insert(.prettyPrinted)
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}

/// Who the audit log names for changes made here.
private let cliActor = "cli"

extension Tap.MerchantCommand {
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Create a merchant with a new card acceptor id."
        )

        @Option(help: "The trading name.") var name: String
        @Option(help: "ISO 3166-1 alpha-2 country, e.g. DE.") var country: String
        @Option(help: "ISO 4217 currency, e.g. EUR.") var currency: String
        @Option(help: "Merchant Category Code, four digits.") var mcc: String = Gateway.Merchant.defaultCategoryCode
        @OptionGroup var store: GatewayStoreOptions

        func run() async throws {
            guard let countryValue = Country(alpha2: country.uppercased()) else {
                throw ValidationError("--country: '\(country)' is not an ISO 3166-1 alpha-2 code")
            }
            guard let currencyValue = Currency(alphabeticCode: currency.uppercased()) else {
                throw ValidationError("--currency: '\(currency)' is not an ISO 4217 alphabetic code")
            }
            let merchant = try await store.withDatabase { database in
                try await MerchantRepository(database: database).create(
                    name: name, country: countryValue, currency: currencyValue, categoryCode: mcc, actor: cliActor)
            }
            if store.json { return try store.printJSON(merchant) }
            print(
                "Created merchant \(merchant.id) \"\(merchant.name)\" (\(merchant.country.alpha2), \(merchant.currency))"
            )
            print("  card acceptor id \(merchant.cardAcceptorId), MCC \(merchant.categoryCode)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the merchants with their users and API keys."
        )

        @OptionGroup var store: GatewayStoreOptions

        /// A merchant with its users and keys (ids only: secrets are never stored).
        struct Entry: Encodable, Sendable {
            var merchant: Gateway.Merchant
            var users: [MerchantUser]
            var apiKeys: [APIKey]
        }

        func run() async throws {
            let entries = try await store.withDatabase { database in
                let users = MerchantUserRepository(database: database)
                let keys = APIKeyRepository(database: database)
                var entries: [Entry] = []
                for merchant in try await MerchantRepository(database: database).all() {
                    entries.append(
                        Entry(
                            merchant: merchant, users: try await users.users(merchantId: merchant.id),
                            apiKeys: try await keys.keys(merchantId: merchant.id)))
                }
                return entries
            }
            if store.json { return try store.printJSON(entries) }
            if entries.isEmpty { print("No merchants yet: tap merchant create --name … --country … --currency …") }
            for entry in entries {
                let merchant = entry.merchant
                print(
                    "\(merchant.id)  \(merchant.name)  \(merchant.country.alpha2) \(merchant.currency)  "
                        + "MCC \(merchant.categoryCode)  CAID \(merchant.cardAcceptorId)  "
                        + (merchant.isAccountLinked ? "linked" : "not linked"))
                for user in entry.users { print("  user \(user.id)  \(user.email)  \(user.role.rawValue)") }
                for key in entry.apiKeys { print("  key  \(key.id)  \(key.revokedAt == nil ? "active" : "revoked")") }
            }
        }
    }

    struct User: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "user",
            abstract: "Manage a merchant's users.", subcommands: [Add.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add",
                abstract: "Add a user (admin or staff) to a merchant."
            )

            @Option(help: "The merchant id (mer_…).") var merchant: String
            @Option(help: "The user's email address.") var email: String
            @Option(help: "admin (may link the account) or staff.") var role: String
            @Flag(help: "Print a one-time link (72 hours) where the user sets a console password.") var invite = false
            @Option(help: ArgumentHelp("The console's address, for the link.", valueName: "url"))
            var consoleURL = "http://127.0.0.1:8080"
            @OptionGroup var store: GatewayStoreOptions

            /// The JSON output with --invite: the only place the link ever appears.
            struct Invited: Encodable {
                var user: MerchantUser
                var invitationLink: String
            }

            func run() async throws {
                guard let roleValue = MerchantUser.Role(rawValue: role.lowercased()) else {
                    throw ValidationError("--role must be admin or staff")
                }
                let (user, token) = try await store.withDatabase { database in
                    let user = try await MerchantUserRepository(database: database).add(
                        merchantId: merchant, email: email, role: roleValue, actor: cliActor)
                    let token =
                        invite
                        ? try await ConsoleAccounts(database: database).invite(userId: user.id, actor: cliActor) : nil
                    return (user, token)
                }
                let link = token.map { consoleURL.trimmingCharacters(in: ["/"]) + "/console/invitations/\($0)" }
                if store.json {
                    if let link { return try store.printJSON(Invited(user: user, invitationLink: link)) }
                    return try store.printJSON(user)
                }
                print("Added \(user.role.rawValue) \(user.id) <\(user.email)> to \(user.merchantId)")
                if let link { print("Invitation (works once, for 72 hours; shown only now): \(link)") }
            }
        }
    }

    struct Key: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "key",
            abstract: "Manage a merchant's API keys.", subcommands: [Create.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "create",
                abstract: "Create an API key; its secret is printed this once and stored only hashed."
            )

            @Option(help: "The merchant id (mer_…).") var merchant: String
            @OptionGroup var store: GatewayStoreOptions

            /// The JSON output: the only place the secret ever appears.
            struct Created: Encodable {
                var id: String
                var merchantId: String
                var createdAt: Date
                var secret: String
            }

            func run() async throws {
                let (key, secret) = try await store.withDatabase { database in
                    try await APIKeyRepository(database: database).create(merchantId: merchant, actor: cliActor)
                }
                if store.json {
                    return try store.printJSON(
                        Created(id: key.id, merchantId: key.merchantId, createdAt: key.createdAt, secret: secret.value))
                }
                print("Created API key \(key.id) for \(key.merchantId). Its secret, shown only now:")
                print(secret.value)
            }
        }
    }
}
