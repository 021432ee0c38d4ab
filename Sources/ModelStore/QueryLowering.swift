import GRDB
import IntentModel

/// SQL text with the values bound to its placeholders, in order.
struct SQLStatement {
    var sql: String
    var arguments: [DatabaseValue]

    var statementArguments: StatementArguments { StatementArguments(arguments) }
}

/// Turns a `RecordQuery` over one table into a statement: the only place a filter becomes SQL.
/// What differs between databases is asked of the dialect; values are encoded as the table
/// stores them (`Columns.encode`) and bound, never written into the text.
struct QueryLowering {
    let dialect: any SQLDialect
    let table: Store.Table
    let clock: Clock
    private var arguments: [DatabaseValue] = []

    init(dialect: any SQLDialect, table: Store.Table, clock: Clock) {
        self.dialect = dialect
        self.table = table
        self.clock = clock
    }

    /// `SELECT *` of the records the query wants, in its order.
    static func select(_ query: RecordQuery, from table: Store.Table, store: Store) throws(StoreError) -> SQLStatement {
        var lowering = QueryLowering(dialect: store.dialect, table: table, clock: store.clock)
        var sql = "SELECT * FROM \(table.quoted)"
        if let filter = query.filter { sql += " WHERE " + (try lowering.condition(filter)) }
        sql += " ORDER BY " + (try lowering.order(query.sort)).joined(separator: ", ")
        if let limit = query.limit { sql += " LIMIT \(max(0, limit))" }
        return SQLStatement(sql: sql, arguments: lowering.arguments)
    }

    /// `SELECT count(*)` of at most `limit` records the filter keeps, in no order: `exists(…)`
    /// stops at the first one instead of sorting every match.
    static func count(
        _ query: RecordQuery, upTo limit: Int, in table: Store.Table, store: Store
    ) throws(StoreError) -> SQLStatement {
        var lowering = QueryLowering(dialect: store.dialect, table: table, clock: store.clock)
        var sql = "SELECT 1 FROM \(table.quoted)"
        if let filter = query.filter { sql += " WHERE " + (try lowering.condition(filter)) }
        // PostgreSQL wants the subquery named; SQLite's text stays as its query-plan tests read it.
        let name = store.isPostgres ? " AS matching" : ""
        return SQLStatement(
            sql: "SELECT count(*) FROM (\(sql) LIMIT \(max(0, limit)))\(name)", arguments: lowering.arguments)
    }

    /// A property that always holds a value (required, defaulted or built in): never NULL.
    func isNeverMissing(_ property: String) -> Bool {
        guard let declared = table.entity.property(property) else {
            return IntentGraph.BuiltinProperty(rawValue: property) != nil
        }
        return declared.isBuiltin || !declared.isOptional
    }

    /// `SELECT count(*)` of the records the query's filter keeps (its order and limit aside).
    static func count(_ query: RecordQuery, in table: Store.Table, store: Store) throws(StoreError) -> SQLStatement {
        var lowering = QueryLowering(dialect: store.dialect, table: table, clock: store.clock)
        var sql = "SELECT count(*) FROM \(table.quoted)"
        if let filter = query.filter { sql += " WHERE " + (try lowering.condition(filter)) }
        return SQLStatement(sql: sql, arguments: lowering.arguments)
    }

    /// A boolean SQL expression for the filter.
    mutating func condition(_ filter: RecordFilter) throws(StoreError) -> String {
        switch filter {
        case .constant(let flag):
            return dialect.literal(flag)
        case .not(.compare(let property, .equal, .boolean(let flag)?))
        where table.type(of: property) == .boolean && isNeverMissing(property):
            // `!done` as `done IS 0`, which an index on `done` serves (`NOT (done IS 1)` is not).
            return dialect.isSame(column(property), bind(Columns.encode(.boolean(!flag), as: .boolean, clock: clock)))
        case .not(let operand):
            return "NOT (\(try condition(operand)))"
        case .and, .or:
            // A chain of one operator is written as a balanced tree, `((a OR b) OR (c OR d))`:
            // `((a OR b) OR c)…` nests a level per term and overflows SQLite's parser stack at ~100
            // terms (and its expression depth limit of 1000 even when written flat).
            let isAnd: Bool
            if case .and = filter { isAnd = true } else { isAnd = false }
            var terms: [String] = []
            for operand in Self.chain(filter, and: isAnd) { terms.append(try condition(operand)) }
            return Self.balanced(terms[...], isAnd ? "AND" : "OR")
        case .compare(let property, let comparison, let value):
            return try compare(property, comparison, value)
        case .oneOf(let property, let values):
            let type = try type(of: property, notAList: "one of")
            guard !values.isEmpty else { return dialect.literal(false) }
            let placeholders = values.map { bind(Columns.encode($0, as: type, clock: clock)) }
            return "(\(column(property)) IN (\(placeholders.joined(separator: ", "))))"
        case .textContains(let property, let text):
            let type = try type(of: property)
            guard type == .string || type == .url else {
                throw .invalidData("\(table.entity.name.name).\(property) is \(type), not text: it cannot contain text")
            }
            return dialect.textContains(column(property), bind(text.databaseValue))
        case .listContains(let property, let value):
            guard case .array(let element) = try type(of: property) else {
                throw .invalidData("\(table.entity.name.name).\(property) is not a list")
            }
            return dialect.listContains(column(property), bind(Columns.encode(value, as: element, clock: clock)))
        }
    }

    /// Terms joined by `op` as a balanced tree: depth log2 of their number.
    static func balanced(_ terms: ArraySlice<String>, _ op: String) -> String {
        if terms.count == 1 { return terms.first! }
        let middle = terms.startIndex + terms.count / 2
        return "(\(balanced(terms[..<middle], op)) \(op) \(balanced(terms[middle...], op)))"
    }

    /// The operands of a chain of `and` (or `or`) in order, however it nests, without recursion.
    static func chain(_ filter: RecordFilter, and: Bool) -> [RecordFilter] {
        var operands: [RecordFilter] = []
        var pending = [filter]
        while let next = pending.popLast() {
            switch (next, and) {
            case (.and(let lhs, let rhs), true), (.or(let lhs, let rhs), false):
                pending.append(rhs)
                pending.append(lhs)
            default:
                operands.append(next)
            }
        }
        return operands
    }

    private mutating func compare(
        _ property: String, _ comparison: RecordFilter.Comparison, _ value: Value?
    ) throws(StoreError) -> String {
        let type = try type(of: property)
        let column = column(property)
        guard let value else {
            switch comparison {
            case .equal: return "(\(column) IS NULL)"
            case .notEqual: return "(\(column) IS NOT NULL)"
            default: return dialect.literal(false)
            }
        }
        if case .array = type {
            throw .invalidData("\(table.entity.name.name).\(property) is a list: ask whether it contains a value")
        }
        switch comparison {
        case .equal: return dialect.isSame(column, bind(Columns.encode(value, as: type, clock: clock)))
        case .notEqual: return dialect.isDifferent(column, bind(Columns.encode(value, as: type, clock: clock)))
        default: break
        }
        let symbol =
            switch comparison {
            case .less: "<"
            case .lessOrEqual: "<="
            case .greater: ">"
            default: ">="
            }
        // Enum cases order as declared, not as spelled.
        if let cases = table.enumOrder[property] {
            guard case .enumCase(let id) = value, let rank = cases.firstIndex(of: id) else {
                throw .invalidData("'\(value)' is not a case of \(table.entity.name.name).\(property)")
            }
            return "(\(try ordinal(property)) \(symbol) \(bind(rank.databaseValue)))"
        }
        return "(\(column) \(symbol) \(bind(Columns.encode(value, as: type, clock: clock))))"
    }

    /// ORDER BY terms: the sort keys, then oldest first.
    mutating func order(_ keys: [IntentGraph.SortKey]) throws(StoreError) -> [String] {
        var terms: [String] = []
        for key in keys {
            _ = try type(of: key.property)
            var expression = column(key.property)
            if table.enumOrder[key.property] != nil { expression = try ordinal(key.property) }
            terms += dialect.orderTerms(
                expression, column: column(key.property), descending: key.descending,
                nullable: !isNeverMissing(key.property))
        }
        let createdAt = column(IntentGraph.BuiltinProperty.createdAt.rawValue)
        return terms + (terms.contains { $0.hasPrefix(createdAt) } ? [] : [createdAt]) + [dialect.insertionOrder]
    }

    /// The cases are written as literals, not bound: an index on the same expression then serves it.
    private mutating func ordinal(_ property: String) throws(StoreError) -> String {
        indexTerm(property)
    }

    private func type(of property: String, notAList use: String? = nil) throws(StoreError) -> ValueType {
        guard let type = table.type(of: property) else {
            throw .invalidData("\(table.entity.name.name) has no property '\(property)'")
        }
        if let use, case .array = type {
            throw .invalidData("\(table.entity.name.name).\(property) is a list: it cannot be \(use) values")
        }
        return type
    }

    private func column(_ property: String) -> String { dialect.quote(property) }

    private mutating func bind(_ value: DatabaseValue) -> String {
        arguments.append(value)
        return dialect.placeholder(arguments.count)
    }
}
