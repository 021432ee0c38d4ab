import Foundation
import IntentEngine
import IntentRequests

/// Finds the user of a bearer token. The users file is read again only when it changed (its
/// modification time or size), so a request costs one `stat` and one hash.
final class Authenticator: @unchecked Sendable {
    private let directory: UserDirectory
    private let lock = NSLock()
    private var users: [String: User] = [:]
    private var stamp: (modified: Date?, size: Int)? = nil

    init(directory: UserDirectory) {
        self.directory = directory
    }

    /// The user of `header` (`Bearer <token>`), or nil for none, a malformed header or an unknown token.
    func user(authorization header: String?) -> User? {
        guard let token = BearerToken.parse(header) else { return nil }
        let hash = UserDirectory.hash(token)
        return lock.withLock {
            refreshIfChanged()
            return users[hash]
        }
    }

    private func refreshIfChanged() {
        let attributes = try? FileManager.default.attributesOfItem(atPath: directory.path)
        let now = (attributes?[.modificationDate] as? Date, (attributes?[.size] as? NSNumber)?.intValue ?? -1)
        if let stamp, stamp.modified == now.0, stamp.size == now.1 { return }
        // An unreadable file lets nobody in rather than keeping tokens that may have been removed.
        let entries = (try? directory.entries()) ?? []
        users = Dictionary(entries.map { ($0.tokenHash, User($0.name)) }, uniquingKeysWith: { first, _ in first })
        stamp = now
    }
}
