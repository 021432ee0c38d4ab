import IntentModel

extension LearnedStage {
    /// Each app's `understanding:` thresholds, where it sets them (the default for what it leaves out).
    public static func thresholds(of graph: IntentGraph) -> [String: LearnedThresholds] {
        var thresholds: [String: LearnedThresholds] = [:]
        for app in graph.apps where app.understanding.act != nil || app.understanding.ask != nil {
            thresholds[app.name] = LearnedThresholds(
                act: app.understanding.act ?? LearnedThresholds.standard.act,
                ask: app.understanding.ask ?? LearnedThresholds.standard.ask)
        }
        return thresholds
    }

    /// Each intent's `training:` sentences, their `[words](slot)` marks reduced to the words.
    public static func trainingSentences(of graph: IntentGraph) -> [QualifiedName: [String]] {
        var sentences: [QualifiedName: [String]] = [:]
        for app in graph.apps {
            for intent in app.intents where !intent.training.isEmpty { sentences[intent.name] = intent.training }
        }
        return sentences
    }
}
