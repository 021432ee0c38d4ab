import Foundation
import ModelStore
import Testing

/// `--store postgres://…` (and `$INTENTS_STORE`) read as libpq reads it: escapes decoded, IPv6 in
/// brackets, the port checked, unknown or repeated options refused, the password never shown.
@Suite("PostgreSQL store URLs")
struct PostgresLocationTests {
    struct Good: Sendable, CustomStringConvertible {
        var url: String
        var host: String
        var port: Int
        var user: String
        var password: String?
        var database: String
        var schema: String
        var description: String { url }
    }

    static let good: [Good] = [
        Good(
            url: "postgres://intents@127.0.0.1:5432/postgres", host: "127.0.0.1", port: 5432, user: "intents",
            database: "postgres", schema: "public"),
        Good(
            url: "postgresql://ann:p%40ss%3Aw%2Frd@db.example.org/intents?schema=main_1", host: "db.example.org",
            port: 5432, user: "ann", password: "p@ss:w/rd", database: "intents", schema: "main_1"),
        Good(
            url: "postgres://ann:pa@ss@host/db", host: "host", port: 5432, user: "ann", password: "pa@ss",
            database: "db", schema: "public"),
        Good(url: "postgres://u@[::1]:6543/db", host: "::1", port: 6543, user: "u", database: "db", schema: "public"),
        Good(
            url: "postgres://u@h/my%20db?sslmode=disable", host: "h", port: 5432, user: "u", database: "my db",
            schema: "public"),
        Good(url: "postgres://u:@h:/", host: "h", port: 5432, user: "u", password: "", database: "u", schema: "public"),
    ]

    @Test(arguments: good)
    func readsAURL(_ c: Good) throws {
        let location = try PostgresLocation(c.url)
        #expect(location.host == c.host)
        #expect(location.port == c.port)
        #expect(location.user == c.user)
        #expect(location.password == c.password)
        #expect(location.database == c.database)
        #expect(location.schema == c.schema)
        // Its own URL reads back the same; its description leaves the password out.
        #expect(try PostgresLocation(location.url) == location)
        if let password = c.password, !password.isEmpty { #expect(!location.description.contains(password)) }
    }

    static let bad: [(url: String, says: String)] = [
        ("postgres://u@host:99999/db", "the port must be a number from 1 to 65535, not '99999'"),
        ("postgres://u@host:0/db", "the port must be a number from 1 to 65535"),
        ("postgres://u@host:5x/db", "the port must be a number"),
        ("postgres:///db", "not a PostgreSQL URL: it names no host"),
        ("postgres://u@h%41/db", "is not a host name or address"),
        ("postgres://u@[::1/db", "an IPv6 address must end with ']'"),
        ("postgres://u@h/db/more", "the database is one name"),
        ("postgres://u@h/d%00b", "the database name holds a NUL"),
        ("postgres://u@h/d%zzb", "the database name has a broken %-escape"),
        ("postgres://u@h/d%ffb", "the database name is not UTF-8"),
        ("postgres://u@h/db?schema=a&schema=b", "the option 'schema' is given twice"),
        ("postgres://u@h/db?schema", "the option 'schema' needs a value"),
        ("postgres://u@h/db?schema=Main", "the schema 'Main' is not a name"),
        ("postgres://u@h/db?sslmode=require", "sslmode='require': this version connects without TLS only"),
        ("postgres://u@h/db?application_name=x", "unknown option 'application_name'"),
        ("postgres://u@h/db#part", "no '#' part"),
        ("postgres://u@h/\(String(repeating: "d", count: 64))", "the database name is over 63 bytes"),
    ]

    @Test(arguments: bad)
    func refusesAURLWithTheReason(_ url: String, _ says: String) {
        #expect {
            try PostgresLocation(url)
        } throws: { error in
            "\(error)".contains(says)
        }
    }

    /// A password holding what ends the user part ('#', '?', '/', '@') is hidden whole in messages,
    /// and so is a control character anywhere.
    @Test(arguments: [
        "postgres://ann:s3cret#word@h/db", "postgres://ann:s3cret?word@h:1/db",
        "postgres://ann:s3cret/word@h/db?schema=X",
        "postgres://ann:s3cret@word@h:0/db",
        // Found by FuzzStoreURL: an option's name reaching across the password.
        "postgres://ann?x:s3cret@word@h/db",
    ])
    func theMessageNeverShowsThePassword(_ url: String) {
        do {
            _ = try PostgresLocation(url)
            Issue.record("\(url) was read")
        } catch {
            #expect(!"\(error)".contains("s3cret"), "\(error)")
            #expect(!"\(error)".contains("word@"), "\(error)")
        }
    }

    @Test func controlCharactersAreNotEchoed() {
        do {
            _ = try PostgresLocation("postgres://u@h\u{1B}[2J/db")
            Issue.record("read")
        } catch {
            #expect(!"\(error)".unicodeScalars.contains { $0.value == 0x1B }, "\(error)")
        }
    }

    @Test func aUsersSchemaKeepsEverythingElse() throws {
        let url = "postgres://ann:p%40ss@[::1]:6543/db?schema=main"
        let user = StoreLocation.store(of: "bob", besides: url)
        let location = try PostgresLocation(user)
        #expect(location.password == "p@ss")
        #expect(location.host == "::1" && location.port == 6543 && location.database == "db")
        #expect(location.schema == "main_u_bob")
    }
}
