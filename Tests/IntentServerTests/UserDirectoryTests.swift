import Foundation
import IntentServer
import Testing

/// `intents users`: names that are also folder names, tokens shown once and kept only as SHA-256.
@Suite("Users and their tokens")
struct UserDirectoryTests {
    let path = NSTemporaryDirectory() + "intents-users-\(UUID().uuidString)/users.json"

    static let names: [(name: String, valid: Bool)] = [
        ("ann", true), ("bob-2", true), ("kitchen_satellite", true), ("0day", true),
        ("", false), ("Ann", false), ("-ann", false), ("_ann", false), ("../ann", false), ("a/b", false),
        ("ann bob", false), (String(repeating: "a", count: 65), false), ("änn", false),
    ]

    @Test(arguments: names)
    func namesAreFolderNames(_ c: (name: String, valid: Bool)) throws {
        let users = UserDirectory(path: path)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        if c.valid {
            _ = try users.add(c.name)
            #expect(try users.entries().map(\.name) == [c.name])
        } else {
            #expect(throws: UserDirectory.Failure.badName(c.name)) { try users.add(c.name) }
            #expect(try users.entries().isEmpty)
        }
    }

    @Test func theTokenIsKeptOnlyAsItsHash() throws {
        let users = UserDirectory(path: path)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let token = try users.add("ann")
        let file = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!file.contains(token))
        #expect(!file.contains(String(token.dropFirst(3).prefix(12))))
        #expect(file.contains(UserDirectory.hash(token)))
        #expect(UserDirectory.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        #expect(try users.user(forToken: token)?.id == "ann")
        #expect(try users.user(forToken: token + "x") == nil)
    }

    @Test func addingTwiceAndRemovingTheUnknownAreRefused() throws {
        let users = UserDirectory(path: path)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let first = try users.add("ann")
        #expect(throws: UserDirectory.Failure.exists("ann")) { try users.add("ann") }
        #expect(throws: UserDirectory.Failure.unknown("bob")) { try users.remove("bob") }
        let second = try users.add("bob")
        #expect(first != second)
        try users.remove("ann")
        #expect(try users.user(forToken: first) == nil)
        #expect(try users.user(forToken: second)?.id == "bob")
    }
}
