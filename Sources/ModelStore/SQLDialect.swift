import IntentModel

/// The parts of a query's SQL text that differ between databases. `QueryLowering` writes every
/// `RecordQuery` through one of these, so a second backend (PostgreSQL) is a new dialect and a
/// new connection, not a new lowering. Values are never written into the text: each is bound to
/// a placeholder.
protocol SQLDialect: Sendable {
    /// A table or column name as an identifier.
    func quote(_ identifier: String) -> String
    /// The placeholder of the `number`th bound value, from 1.
    func placeholder(_ number: Int) -> String
    /// A condition that always holds, or never.
    func literal(_ flag: Bool) -> String
    /// `expression` equals `value`, where either may be NULL (NULL equals NULL).
    func isSame(_ expression: String, _ value: String) -> String
    /// `expression` differs from `value`, where either may be NULL.
    func isDifferent(_ expression: String, _ value: String) -> String
    /// The text in `column` contains the text `needle`, ignoring case.
    func textContains(_ column: String, _ needle: String) -> String
    /// The list (a JSON array) in `column` holds `element`.
    func listContains(_ column: String, _ element: String) -> String
    /// The position of `column`'s value among `cases` (placeholders, in declared order).
    func ordinal(_ column: String, cases: [String]) -> String
    /// ORDER BY terms for `expression`, values first and missing values last in both directions
    /// (`nullable` false: the column always holds a value, and one term that an index serves either way).
    func orderTerms(_ expression: String, column: String, descending: Bool, nullable: Bool) -> [String]
    /// The last ORDER BY term, so equal records keep the order they were written in.
    var insertionOrder: String { get }
    /// A column's SQL type for values of `type`.
    func columnType(_ type: ValueType) -> String
}

/// SQLite: `?` placeholders, `IS` for null-safe equality, lists as JSON text read with `json_each`.
struct SQLiteDialect: SQLDialect {
    func quote(_ identifier: String) -> String {
        SQLQuoting.name(identifier)
    }

    func placeholder(_ number: Int) -> String { "?" }

    func literal(_ flag: Bool) -> String { flag ? "1" : "0" }

    func isSame(_ expression: String, _ value: String) -> String { "(\(expression) IS \(value))" }

    func isDifferent(_ expression: String, _ value: String) -> String { "(\(expression) IS NOT \(value))" }

    func textContains(_ column: String, _ needle: String) -> String {
        "(instr(intents_fold(\(column)), intents_fold(\(needle))) > 0)"
    }

    func listContains(_ column: String, _ element: String) -> String {
        "EXISTS (SELECT 1 FROM json_each(\(column)) WHERE value = \(element))"
    }

    func ordinal(_ column: String, cases: [String]) -> String {
        "CASE \(column) " + cases.enumerated().map { "WHEN \($0.element) THEN \($0.offset)" }.joined(separator: " ")
            + " END"
    }

    func orderTerms(_ expression: String, column: String, descending: Bool, nullable: Bool) -> [String] {
        (nullable ? ["(\(column) IS NULL)"] : []) + [expression + (descending ? " DESC" : "")]
    }

    var insertionOrder: String { "rowid" }

    func columnType(_ type: ValueType) -> String { Columns.sqlType(type) }
}
