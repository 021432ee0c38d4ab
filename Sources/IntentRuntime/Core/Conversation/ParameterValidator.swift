import IntentModel

/// A parameter's `validations:` (min/max, pattern, oneOf) applied to a value: the message of the
/// first one it fails, as written in the definition.
struct ParameterValidator {
    let evaluator: Evaluator

    /// The first failed validation's message; nil when `datum` passes them all.
    func violation(of datum: Datum, for parameter: IntentGraph.Parameter, language: String? = nil) -> String? {
        for validation in parameter.validations {
            let ok: Bool
            switch validation.rule {
            case .min(let bound), .max(let bound):
                let measure: Double? =
                    switch datum {
                    case .string(let text): Double(text.count)
                    case .list(let items): Double(items.count)
                    default: datum.numeric
                    }
                guard let measure else { continue }
                if case .min = validation.rule { ok = measure >= bound } else { ok = measure <= bound }
            case .pattern(let pattern):
                let text = evaluator.describe(datum)
                ok = (try? Regex(pattern).wholeMatch(in: text)) != nil
            case .oneOf(let allowed):
                ok = allowed.contains { evaluator.equal(evaluator.values.datum($0, as: parameter.type), datum) }
            }
            if !ok { return validation.message(in: language) }
        }
        return nil
    }
}
