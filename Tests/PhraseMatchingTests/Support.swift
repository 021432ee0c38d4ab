import Foundation
import IntentLanguage
import IntentModel
import TestSupport

@testable import PhraseMatching

extension Bundled {
    static let matcher = Matcher(index: PhraseIndex(graph: graph), clock: clock)
}
