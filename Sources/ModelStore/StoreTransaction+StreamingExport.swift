import GRDB
import IntentModel

extension StoreTransaction {
    /// The export `export()` gives, as the text `JSONText.pretty` makes of it, handed to `write`
    /// a record at a time: memory holds one record, whatever the store's size.
    public func export(to write: (String) throws -> Void) throws {
        var sources: [(key: String, table: Store.Table?)] = store.tables.map { ($0.key.description, $0.value) }
        for name in try store.orphanedTables(db).keys { sources.append((name, nil)) }
        sources.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        try write("{")
        for (position, source) in sources.enumerated() {
            try write((position == 0 ? "\n  " : ",\n  ") + JSONText.compact(.string(source.key)) + ": [")
            let quoted = source.table?.quoted ?? store.dialect.quote(source.key)
            let rows = try Row.fetchCursor(
                db, sql: "SELECT * FROM \(quoted) ORDER BY createdAt, \(store.dialect.insertionOrder)")
            var first = true
            while let row = try rows.next() {
                var object: [String: JSONValue] = [:]
                if let table = source.table {
                    object = try json(record(from: row, table))
                    for column in row.columnNames where table.type(of: column) == nil {
                        if let value = Columns.json(stored: row[column]) { object[column] = value }
                    }
                } else {
                    for column in row.columnNames {
                        if let value = Columns.json(stored: row[column]) { object[column] = value }
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
