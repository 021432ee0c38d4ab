import Foundation
import IntentLanguage
import IntentModel
@testable import PhraseMatching
import TestSupport

extension Bundled {
    static let matcher = Matcher(index: PhraseIndex(graph: graph), clock: clock)
}
