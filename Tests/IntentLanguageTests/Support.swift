import Foundation
import IntentModel
import TestSupport

@testable import IntentLanguage

enum Paths {
    /// The package's root folder.
    static let root = Bundled.root

    static let fixtures = root + "/Tests/IntentLanguageTests/Fixtures"
    static let intents = root + "/Intents"
}

/// Compiles one definition file given as text, as the app folder `Intents/t`.
func compile(_ source: String, path: String = "Intents/t/app.yaml") -> Compilation {
    IntentCompiler.compile(files: [(path, Array(source.utf8))], root: "Intents")
}

/// A deterministic generator, so fuzz cases are the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
