import IntentModel

/// One mistake, one diagnostic: a property or parameter whose declaration failed (an unknown
/// type) is remembered, and what refers to it later reports nothing more.
extension Compiler {
    /// Whether `member` of `owner` (an entity or an intent) was declared but failed.
    func hasFailed(_ owner: QualifiedName, _ member: String) -> Bool {
        failedMembers.contains("\(owner.description).\(member)")
    }

    /// Type names of other languages and their names here: `int` → `integer`.
    static let typeAliases: [String: String] = [
        "int": "integer", "integer32": "integer", "int64": "integer", "long": "integer", "bool": "boolean",
        "str": "string", "text": "string", "float": "number", "double": "number", "decimal": "number",
        "datetime": "date", "timestamp": "date", "uri": "url", "timespan": "duration", "interval": "duration",
    ]
}
