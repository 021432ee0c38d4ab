import Foundation
import YAML

/// A file's bytes read up to a limit: a file (or a FIFO, or `/dev/zero` behind a symlink) larger
/// than the limit is refused once the limit is passed, never read whole first.
public enum FileBytes {
    public enum Outcome: Sendable, Equatable {
        case bytes([UInt8])
        /// More than the limit.
        case tooLarge
        /// Missing, a folder, or not readable.
        case unreadable
    }

    /// Largest definition or shortcut file: the YAML parser's limit (4 MB).
    public static let maximumDefinitionBytes = YAMLParser.maximumBytes

    /// Reads `path`, at most `limit` bytes of it.
    public static func read(_ path: String, limit: Int) -> Outcome {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return .unreadable }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) != S_IFDIR else { return .unreadable }
        if (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) > limit { return .tooLarge }
        var bytes: [UInt8] = []
        if (status.st_mode & S_IFMT) == S_IFREG {
            // A file of a known size is read straight into its array, in one go (a compiled cache is
            // megabytes, read by every cold start); one byte more is asked for to see that it ended.
            var failed = false
            let expected = Int(status.st_size)
            bytes = [UInt8](unsafeUninitializedCapacity: expected + 1) { buffer, initialized in
                initialized = 0
                while initialized < buffer.count {
                    let count = Foundation.read(
                        descriptor, buffer.baseAddress! + initialized, buffer.count - initialized)
                    if count < 0 {
                        if errno == EINTR { continue }
                        failed = true
                        return
                    }
                    if count == 0 { return }
                    initialized += count
                }
            }
            if failed { return .unreadable }
            if bytes.count > limit { return .tooLarge }
            if bytes.count <= expected { return .bytes(bytes) }
            // It grew while it was read: the rest in chunks, as for a pipe.
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .unreadable
            }
            if count == 0 { return .bytes(bytes) }
            chunk.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<count])) }
            if bytes.count > limit { return .tooLarge }
        }
    }
}
