import Foundation
import IntentModel

/// The compiled cache's files beside the store (`compiled-<hash>.bin`, `index-<hash>.bin`, `learned-<hash>.bin`).
enum CacheFile {
    /// Writes `bytes` to `file` through a temporary file renamed into place (a reader never sees half
    /// a file), then removes the other `<prefix>*.bin` files in `directory`, caches of definitions
    /// that have changed. A cache that cannot be written is no error: the next process builds it again.
    @discardableResult
    static func replace(_ file: String, in directory: String, with bytes: [UInt8], others prefix: String) -> Bool {
        let manager = FileManager.default
        try? manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let temporary = file + ".\(ProcessInfo.processInfo.processIdentifier).tmp"
        guard manager.createFile(atPath: temporary, contents: Data(bytes)) else { return false }
        if rename(temporary, file) != 0 {
            try? manager.removeItem(atPath: temporary)
            return false
        }
        let own = PathText.lastComponent(file)
        for name in (try? manager.contentsOfDirectory(atPath: directory)) ?? []
        where name.hasPrefix(prefix) && name.hasSuffix(".bin") && name != own {
            try? manager.removeItem(atPath: PathText.appending(directory, name))
        }
        return true
    }
}
