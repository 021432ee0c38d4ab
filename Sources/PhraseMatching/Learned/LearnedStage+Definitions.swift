import IntentModel

extension LearnedStage {
    /// Each app's `understanding:` thresholds, where it sets them.
    public static func thresholds(of graph: IntentGraph) -> [String: LearnedThresholds] {
        [:]
    }

    /// Each intent's `training:` sentences, their `[words](slot)` marks reduced to the words.
    public static func trainingSentences(of graph: IntentGraph) -> [QualifiedName: [String]] {
        [:]
    }
}
