import Foundation
import IntentLanguage
import IntentModel

/// What the test targets share: the package's folder, the bundled definitions compiled once, and
/// the fixed moment every relative date in the tests counts from.
public enum Bundled {
    /// The package's root folder.
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    public static let graph: IntentGraph = {
        guard let graph = try? IntentCompiler.compile(directory: root + "/Intents").graph else {
            fatalError("the bundled definitions do not compile")
        }
        return graph
    }()

    /// Sunday 22 November 2026, 10:00 UTC.
    public static let now = Date(timeIntervalSince1970: 1_795_341_600)

    /// A clock stopped at `now`, in UTC.
    public static let clock = Clock.fixed(now, timeZone: TimeZone(identifier: "UTC")!)

    public static var calendar: Calendar { clock.calendar }
}
