import Foundation

/// A temporary folder for one test's store and files, removed when the test's suite instance goes.
public final class ScratchDirectory: Sendable {
    public let path: String

    public init(_ name: String) {
        path = NSTemporaryDirectory() + "intents-\(name)-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
