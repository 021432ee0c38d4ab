import Foundation
import IntentLanguage
import IntentModel

/// The bundled apps as they were on 2026-11-26 (`Fixtures/para6-apps`, a copy of `Intents/`), for
/// tests about how the learned stage decides: a guess near a threshold ("Did you mean …?" between
/// ask and act, a step down for small words) moves whenever an author adds a phrase or a `training:`
/// sentence to the bundled apps, and such a test should fail only when the mechanism changes.
/// Tests of what the bundled apps answer use `Bundled`.
public enum FrozenApps {
    /// The definitions directory (`intents … --intents` takes it).
    public static let directory = Bundled.root + "/Tests/TestSupport/Fixtures/para6-apps"

    public static let graph: IntentGraph = {
        guard let graph = try? IntentCompiler.compile(directory: directory).graph else {
            fatalError("the frozen apps do not compile")
        }
        return graph
    }()
}
