import _SQLStorage
import ContactlessTesting
import Gateway
import Testing

@Suite("Storage: PostgreSQL URLs")
struct PostgresURLTests {
    @Test("a full URL gives every part; the password is decoded and never shown")
    func full() throws {
        let url = try PostgresURL("postgres://gateway:s%40cret%2Fpw@db.example.com:6543/payments")
        #expect(url.host == "db.example.com")
        #expect(url.port == 6543)
        #expect(url.username == "gateway")
        #expect(url.password == "s@cret/pw")
        #expect(url.database == "payments")
        #expect(url.tls == .require)
        #expect(!url.description.contains("cret"))
        #expect(url.description == "postgres://gateway:***@db.example.com:6543/payments?sslmode=require")
    }

    @Test(
        "defaults: port 5432, the user's database, no TLS on loopback",
        arguments: [
            "postgres://postgres@127.0.0.1", "postgresql://postgres@localhost/", "postgres://postgres@[::1]",
        ])
    func defaults(_ text: String) throws {
        let url = try PostgresURL(text)
        #expect(url.port == 5432)
        #expect(url.database == "postgres")
        #expect(url.password == nil)
        #expect(url.tls == .disable)
    }

    @Test("sslmode overrides the default")
    func sslmode() throws {
        #expect(try PostgresURL("postgres://u@127.0.0.1/d?sslmode=require").tls == .require)
        #expect(try PostgresURL("postgres://u@db.example.com/d?sslmode=prefer").tls == .prefer)
        #expect(try PostgresURL("postgres://u@127.0.0.1:1/d").with(database: "other").database == "other")
    }

    @Test(
        "malformed URLs are connectionFailed without quoting the password",
        arguments: [
            "", "mysql://u:hunter2@h/d", "postgres://:hunter2@h/d", "postgres://u:hunter2@/d",
            "postgres://u:hunter2@h:0/d",
            "postgres://u:hunter2@h/d/e", "postgres://u:hunter2@h/d?sslmode=sometimes", "postgres://u:hunter2@h/d?x=1",
            "not a url at all",
        ])
    func malformed(_ text: String) {
        let error = #expect(throws: StorageError.connectionFailed) { try PostgresURL(text) }
        #expect(error.map { !$0.message.contains("hunter2") } ?? false)
        #expect(throws: StorageError.connectionFailed) { try PostgresStorage(url: text) }
    }

    @Test("an unreachable server fails the connection check at once", .timeLimit(.minutes(1)))
    func unreachable() async throws {
        // Port 1 on loopback: nothing listens there, the connection is refused at once.
        let database = try PostgresStorage(url: "postgres://postgres:hunter2@127.0.0.1:1/postgres")
        let error = await #expect(throws: StorageError.connectionFailed) { try await database.checkConnection() }
        #expect(error.map { !$0.message.contains("hunter2") } ?? false)
    }

    @Test(
        "a missing database fails the connection check",
        .enabled(if: TestDatabases.postgresURL != nil, "CONTACTLESS_POSTGRES_URL is not set"))
    func missingDatabase() async throws {
        let url = try PostgresURL(try #require(TestDatabases.postgresURL)).with(database: "no_such_database")
        await #expect(throws: StorageError.connectionFailed) { try await PostgresStorage(url: url).checkConnection() }
        try await PostgresStorage(url: try PostgresURL(try #require(TestDatabases.postgresURL))).checkConnection()
    }
}
