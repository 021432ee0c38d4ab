import Foundation
import IntentEngine
import IntentRequests

/// Finds the user of a bearer token. The users file is read again only when it changed (its
/// modification time, size or inode), so a request costs one `stat` and one hash.
final class Authenticator: @unchecked Sendable {
    private let directory: UserDirectory
    private let lock = NSLock()
    private var users: [String: User] = [:]
    private var stamp: Stamp? = nil

    /// What tells that the users file changed: its modification time, size and inode (0s when it
    /// is not there).
    struct Stamp: Equatable {
        var seconds = 0, nanoseconds = 0, size = 0, inode: UInt64 = 0
    }

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
        // `stat` itself: Foundation's `attributesOfItem` also looks the owner and group up by
        // name, which reads the system's user database on every request.
        var info = stat()
        var now = Stamp()
        if stat(directory.path, &info) == 0 {
            now = Stamp(
                seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec), size: Int(info.st_size),
                inode: UInt64(info.st_ino))
        }
        if let stamp, stamp == now { return }
        // An unreadable file lets nobody in rather than keeping tokens that may have been removed.
        let entries = (try? directory.entries()) ?? []
        users = Dictionary(entries.map { ($0.tokenHash, User($0.name)) }, uniquingKeysWith: { first, _ in first })
        stamp = now
    }
}
