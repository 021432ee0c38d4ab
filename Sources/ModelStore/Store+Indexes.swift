import GRDB
import IntentModel

/// Indexes on entity tables: on properties declared `indexed: true`, and derived from the queries
/// the definitions run on their own (widgets' items, counts and `exists`, controls' states,
/// entities' `suggested:`), so those read a few index entries instead of every record.
///
/// An index is named by a hash of its definition (`_ix_<table>_<hash>`): one whose definition
/// changed (a property's cases reordered, a widget's sort changed) is another index, so opening
/// the store drops the ones no longer planned and creates the new ones.
extension Store {
    struct PlannedIndex: Hashable, Sendable {
        let name: String
        let table: String
        /// The indexed terms as SQL, exactly as `QueryLowering` writes them in WHERE and ORDER BY.
        let terms: [String]

        var sql: String {
            "CREATE INDEX IF NOT EXISTS \"\(name)\" ON \(SQLQuoting.name(table)) (\(terms.joined(separator: ", ")))"
        }
    }

    /// The indexes `graph` asks for, by the tables given.
    static func plannedIndexes(
        graph: IntentGraph, tables: [QualifiedName: Table], dialect: any SQLDialect, clock: Clock
    )
        -> [PlannedIndex]
    {
        var planned: [String: PlannedIndex] = [:]
        func add(_ table: Table, _ terms: [String]) {
            guard !terms.isEmpty else { return }
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in terms.joined(separator: "\u{1F}").utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            let safe = String(table.name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
            let name = "_ix_\(safe)_" + String(hash, radix: 16)
            planned[name] = PlannedIndex(name: name, table: table.name, terms: terms)
        }
        for table in tables.values {
            for property in table.entity.properties where property.isIndexed {
                // For where (its column) and for sort (as ORDER BY writes it, both ways).
                add(table, [dialect.quote(property.name)])
                for descending in [false, true] {
                    var lowering = QueryLowering(dialect: dialect, table: table, clock: clock)
                    let key = IntentGraph.SortKey(property: property.name, descending: descending)
                    if let terms = try? lowering.order([key]) { add(table, Array(terms.dropLast())) }
                    // A column that always holds a value is read backwards for the other way.
                    if lowering.isNeverMissing(property.name) { break }
                }
            }
            if let suggested = table.entity.suggested { plan(suggested, table) }
        }
        func plan(_ query: IntentGraph.Query, _ table: Table) {
            let lowering = QueryLowering(dialect: dialect, table: table, clock: clock)
            let (equal, range) = Self.constrained(query.filter, table)
            let leading = equal.sorted().map(dialect.quote)
            if let range { add(table, leading + [lowering.indexTerm(range)]) } else { add(table, leading) }
            if !query.sort.isEmpty || query.limit != nil {
                var ordering = QueryLowering(dialect: dialect, table: table, clock: clock)
                if let terms = try? ordering.order(query.sort) { add(table, leading + terms.dropLast()) }
            }
        }
        func plan(_ expression: Expression?, app: String) {
            guard let expression else { return }
            var pending = [expression]
            while let next = pending.popLast() {
                switch next.kind {
                case .query(let entity, let filter):
                    let parts = entity.split(separator: ".", maxSplits: 1).map(String.init)
                    let name =
                        parts.count == 2
                        ? QualifiedName(app: parts[0], name: parts[1]) : QualifiedName(app: app, name: entity)
                    if let table = tables[name] {
                        plan(IntentGraph.Query(entity: name, filter: filter, sort: [], limit: nil), table)
                    }
                    if let filter { pending.append(filter) }
                case .member(let base, _), .unary(_, let base): pending.append(base)
                case .binary(_, let a, let b): pending += [a, b]
                case .conditional(let a, let b, let c): pending += [a, b, c]
                case .call(_, let arguments), .list(let arguments): pending += arguments
                case .literal, .null, .name, .implicitCase, .enumCase: break
                }
            }
        }
        for widget in graph.widgets {
            let content = widget.content
            if let items = content.items, let table = tables[items.entity] { plan(items, table) }
            for template in [content.title, content.value, content.label, content.line, content.detail, content.empty] {
                for expression in template?.expressions ?? [] { plan(expression, app: widget.app) }
            }
            plan(content.gauge, app: widget.app)
            for rule in widget.relevance { plan(rule.condition, app: widget.app) }
        }
        for control in graph.controls {
            if case .toggle(let state, _, _) = control.kind { plan(state, app: control.app) }
        }
        // An index whose terms begin another's is served by that one.
        let all = planned.values
        return all.filter { index in
            !all.contains { other in
                other.table == index.table && other.terms.count > index.terms.count
                    && Array(other.terms.prefix(index.terms.count)) == index.terms
            }
        }.sorted { $0.name < $1.name }
    }

    /// The properties a filter holds to one value (`!done`, `kind == .big`, `due == nil`), and one
    /// it bounds (`due < now()`, `due != nil`): what an index serves, equal ones first.
    static func constrained(_ filter: Expression?, _ table: Table) -> (equal: Set<String>, range: String?) {
        var equal: Set<String> = []
        var ranges: [String] = []
        func property(_ expression: Expression) -> String? {
            guard case .name(let name) = expression.kind, table.type(of: name) != nil else { return nil }
            return name
        }
        var pending = filter.map { [$0] } ?? []
        while let next = pending.popLast() {
            switch next.kind {
            case .binary(.and, let a, let b): pending += [a, b]
            case .name: if let name = property(next) { equal.insert(name) }
            case .unary(.not, let operand): if let name = property(operand) { equal.insert(name) }
            case .binary(let op, let a, let b):
                guard let name = property(a) ?? property(b), property(a) == nil || property(b) == nil else { continue }
                let other = property(a) == nil ? a : b
                switch op {
                case .equal: equal.insert(name)
                case .notEqual: if case .null = other.kind { ranges.append(name) }
                case .less, .lessOrEqual, .greater, .greaterOrEqual: ranges.append(name)
                default: break
                }
            default: break
            }
        }
        return (equal, ranges.first { !equal.contains($0) })
    }

    /// Indexes of this store's tables that are not planned, and planned ones that are missing.
    func indexChanges(_ db: any SQLExecutor) throws -> (drop: [String], create: [PlannedIndex]) {
        let tableNames = Set(tables.values.map(\.name))
        var existing: Set<String> = []
        let sql =
            db.isPostgres
            ? """
            SELECT indexname::text AS name, tablename::text AS tbl_name FROM pg_indexes
            WHERE schemaname = current_schema() AND indexname LIKE '\\_ix\\_%' ESCAPE '\\'
            """
            : "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND name LIKE '\\_ix\\_%' ESCAPE '\\'"
        for row in try db.fetchAll(sql: sql)
        where tableNames.contains(row["tbl_name"]) {
            existing.insert(row["name"])
        }
        let wanted = Set(indexes.map(\.name))
        return (existing.subtracting(wanted).sorted(), indexes.filter { !existing.contains($0.name) })
    }

    /// Drops the indexes no longer planned and creates the missing ones (in the migration's transaction).
    func migrateIndexes(_ db: any SQLExecutor) throws {
        let (drop, create) = try indexChanges(db)
        for name in drop { try db.execute(sql: "DROP INDEX IF EXISTS \(dialect.quote(name))") }
        for index in create { try db.execute(sql: index.sql) }
    }
}

extension QueryLowering {
    /// How `property` appears in a WHERE or ORDER BY term: an enum's declared position, else its column.
    func indexTerm(_ property: String) -> String {
        let column = dialect.quote(property)
        guard let cases = table.enumOrder[property] else { return column }
        return dialect.ordinal(column, cases: cases.map(Self.literal))
    }

    /// A text as an SQL string literal: for enum case identifiers in expressions an index must
    /// match word for word (a bound value would not).
    static func literal(_ text: String) -> String { SQLQuoting.literal(text) }
}

extension Store {
    /// The statements `body` runs over entity tables, each with SQLite's query plan (for tests that
    /// check a query is served by an index, whatever the store's size).
    package func queryPlans(during body: () throws -> Void) throws -> [(sql: String, plan: String)] {
        var statements: [String] = []
        let tableNames = tables.values.map(\.quoted)
        let queue = try self.queue
        queue.inDatabase { db in
            db.trace(options: .statement) { event in
                guard case .statement(let statement) = event else { return }
                let sql = statement.expandedSQL
                if sql.hasPrefix("SELECT"), tableNames.contains(where: { sql.contains("FROM \($0)") }) {
                    statements.append(sql)
                }
            }
        }
        defer { queue.inDatabase { db in db.trace(options: .statement, nil) } }
        try body()
        return try queue.inDatabase { db in
            db.trace(options: .statement, nil)
            return try statements.map { sql in
                let rows = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql)
                return (sql, rows.map { $0["detail"] as String }.joined(separator: "; "))
            }
        }
    }
}
