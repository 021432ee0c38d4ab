import Foundation
import IntentLanguage
import TestSupport
@testable import PhraseMatching

extension Bundled {
    static let matcher = Matcher(index: PhraseIndex(graph: graph), now: now, calendar: calendar)
}
