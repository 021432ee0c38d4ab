import Crypto
import Foundation
public import IntentEngine

/// The people the server answers, and how it knows them: a name and the SHA-256 of a bearer token.
/// The token itself is printed once, when the user is added, and kept nowhere.
///
/// Kept in `users.json` beside the store (mode 0600). The server reads it again when the file
/// changes, so `intents users add` and `remove` take effect without a restart.
public struct UserDirectory: Sendable {
    /// One user as the file keeps it.
    public struct Entry: Sendable, Codable, Hashable {
        public var name: String
        /// Lowercase hex of SHA-256 over the token's UTF-8 bytes.
        public var tokenHash: String
        public var created: Date
    }

    public enum Failure: Error, CustomStringConvertible, Equatable {
        case badName(String)
        case exists(String)
        case unknown(String)
        case unreadable(String)

        public var description: String {
            switch self {
            case .badName(let name):
                "'\(name)' cannot be a user's name: use 1 to 64 lowercase letters, digits, '-' or '_', starting with a letter or digit"
            case .exists(let name): "there is already a user named '\(name)'"
            case .unknown(let name): "there is no user named '\(name)'"
            case .unreadable(let message): message
            }
        }
    }

    /// The users file.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The users file for a store: `users.json` in the store's folder.
    public static func path(forStore store: String) -> String {
        (StoreLayout(store: store).folder as NSString).appendingPathComponent("users.json")
    }

    /// Every user, by name.
    public func entries() throws(Failure) -> [Entry] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode([Entry].self, from: data).sorted { $0.name < $1.name }
        } catch {
            throw .unreadable("the users file \(path) cannot be read: \(error)")
        }
    }

    /// Adds `name` with a new token; returns the token (the only time it is seen).
    public func add(_ name: String, now: Date = Date()) throws(Failure) -> String {
        guard Self.isValidName(name) else { throw .badName(name) }
        var all = try entries()
        guard !all.contains(where: { $0.name == name }) else { throw .exists(name) }
        let token = Self.makeToken()
        all.append(Entry(name: name, tokenHash: Self.hash(token), created: now))
        try write(all)
        return token
    }

    /// Removes `name`'s token (their data stays in their store until removed by hand).
    public func remove(_ name: String) throws(Failure) {
        var all = try entries()
        guard let index = all.firstIndex(where: { $0.name == name }) else { throw .unknown(name) }
        all.remove(at: index)
        try write(all)
    }

    /// The user a bearer token belongs to, if any.
    public func user(forToken token: String) throws(Failure) -> User? {
        let hash = Self.hash(token)
        return try entries().first { $0.tokenHash == hash }.map { User($0.name) }
    }

    /// Lowercase hex SHA-256 of the token's UTF-8 bytes.
    public static func hash(_ token: String) -> String {
        // Two digits a byte from a table: `String(format:)` a byte cost more than the hash.
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: Data(token.utf8)) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `it_` and 43 characters of base64url over 32 random bytes.
    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let base64 = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return "it_" + base64
    }

    /// A name is also a folder's name: lowercase letters, digits, `-` and `_`, 1 to 64 of them.
    public static func isValidName(_ name: String) -> Bool {
        guard (1...64).contains(name.utf8.count), let first = name.utf8.first, first != UInt8(ascii: "-"),
            first != UInt8(ascii: "_")
        else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    private func write(_ all: [Entry]) throws(Failure) {
        do {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(all)
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            let temporary = path + ".tmp-\(getpid())"
            guard
                FileManager.default.createFile(
                    atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600])
            else { throw Failure.unreadable("cannot write \(temporary)") }
            guard rename(temporary, path) == 0 else {
                unlink(temporary)
                throw Failure.unreadable("cannot replace \(path): \(String(cString: strerror(errno)))")
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .unreadable("the users file \(path) cannot be written: \(error)")
        }
    }
}

/// Where a store's files are: its folder, and each user's own store under `users/<name>/`.
public struct StoreLayout: Sendable {
    /// The main store's file (the command line's, the local user's).
    public let store: String

    public init(store: String) {
        self.store = store
    }

    /// The store's folder (`./.intents` for a PostgreSQL store): the users file and the compiled cache.
    public var folder: String {
        IntentEngine.Configuration.folder(ofStore: store)
    }

    /// `<folder>/users/<name>/store.sqlite`, or on PostgreSQL the user's own schema of the same
    /// database: a user's data, apart from everyone else's by construction.
    public func store(of user: User) -> String {
        IntentEngine.Configuration.store(ofUser: user.id, besides: store)
    }
}
