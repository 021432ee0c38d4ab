import GRDB
import IntentModel

/// The one folding for `'x' in text` in SQL and in the evaluator: `TextFolding.fold` (lower case,
/// no diacritics, `ß` as `ss`), registered in every connection as `intents_fold(text)`.
extension Store {
    static let foldFunction = DatabaseFunction("intents_fold", argumentCount: 1, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]) else { return nil as String? }
        return TextFolding.fold(text)
    }
}
