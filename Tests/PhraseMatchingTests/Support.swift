import Foundation
import IntentLanguage
@testable import PhraseMatching

enum Bundled {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let graph: IntentGraph = {
        guard let graph = try? IntentCompiler.compile(directory: root + "/Intents").graph else {
            fatalError("the bundled definitions do not compile")
        }
        return graph
    }()

    /// Sunday 22 November 2026, 10:00 UTC: every relative date in these tests is from here.
    static let now = Date(timeIntervalSince1970: 1_795_341_600)

    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    static let matcher = Matcher(index: PhraseIndex(graph: graph), now: now, calendar: calendar)
}
