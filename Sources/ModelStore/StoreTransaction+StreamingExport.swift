import GRDB
import IntentModel

extension StoreTransaction {
    /// The export `export()` gives, as the text `JSONText.pretty` makes of it, handed to `write`
    /// a record at a time: memory holds one record, whatever the store's size.
    ///
    /// A value its column's type cannot read (a REAL outside `Int`'s range in an integer column,
    /// written by another program) is exported as stored and handed to `unreadable`: the export
    /// always completes and loses nothing, and `store import` refuses that value by its record and
    /// column until it is corrected.
    public func export(
        to write: (String) throws -> Void, unreadable: (StoreError) -> Void = { _ in }
    ) throws {
        var sources: [(key: String, table: Store.Table?)] = store.tables.map { ($0.key.description, $0.value) }
        for name in try store.orphanedTables(db).keys { sources.append((name, nil)) }
        sources.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        try write("{")
        for (position, source) in sources.enumerated() {
            try write((position == 0 ? "\n  " : ",\n  ") + JSONText.compact(.string(source.key)) + ": [")
            let quoted = source.table?.quoted ?? store.dialect.quote(source.key)
            var first = true
            try db.forEachRow(
                sql:
                    "SELECT * FROM \(quoted) ORDER BY \(store.dialect.quote("createdAt")), \(store.dialect.insertionOrder)",
                arguments: []
            ) { row in
                var object: [String: JSONValue] = [:]
                if let table = source.table {
                    object = try exportObject(row, table, unreadable: unreadable)
                } else {
                    for column in row.columnNames {
                        if let value = Columns.json(stored: row.value(column) ?? .null) { object[column] = value }
                    }
                }
                try write((first ? "\n    " : ",\n    ") + JSONText.pretty(.object(object), depth: 2))
                first = false
            }
            try write(first ? "]" : "\n  ]")
        }
        try write(sources.isEmpty ? "}\n" : "\n}\n")
    }
}

extension StoreTransaction {
    /// A row as an export writes it: the record's JSON, with each value its type cannot read
    /// written as stored (and reported), and columns the definitions no longer declare as stored.
    func exportObject(
        _ row: SQLRow, _ table: Store.Table, unreadable: (StoreError) -> Void
    ) throws -> [String: JSONValue] {
        var raw: [String] = []
        var object = try json(
            record(from: row, table) { column, mismatch in
                raw.append(column)
                unreadable(
                    .unreadable(
                        entity: table.entity.name, id: Self.id(of: row), column: column, stored: mismatch.stored,
                        type: mismatch.type))
            })
        for column in row.columnNames where table.type(of: column) == nil || raw.contains(column) {
            if let value = Columns.json(stored: row.value(column) ?? .null) { object[column] = value }
        }
        return object
    }
}
