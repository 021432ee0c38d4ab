import Foundation
import GRDB
import IntentModel

/// What a SQLite `store import` writes beside each new record's row, gathered for a few hundred
/// records and written set-wise: the names' full-text rows, the name index's keys and words, the
/// search index's items, documents and vocabulary. One record at a time these were about twenty
/// statements a record (74 % of an import's instructions, BENCHMARKS.md 2026-11-26); gathered,
/// they are a few statements of many rows each. The tables end up holding what writing each
/// record alone leaves: the same rows, the same row ids, the same documents still pending.
struct ImportBatch {
    /// Records gathered before the batch is written.
    static let records = 500
    /// Rows in one multi-row INSERT.
    static let rowsPerStatement = 100

    /// (entity table, record id, name) for `_names` and `_name_rows`, in order.
    var names: [(entity: String, record: String, name: String)] = []
    /// The name index's keys new in this batch, by entity and key, in the order first met.
    var keys: [String: Int] = [:]
    var keyRows: [(entity: String, length: Int, key: String, name: String, holders: Int, words: [String])] = []
    /// Search documents: (entity table, record id, title, subtitle, expires, folded title, body, keywords).
    var documents:
        [(
            entity: String, record: String, title: String, subtitle: String, expires: String?, title2: String,
            body: String, keywords: String
        )] = []
    var vocabulary: Set<String> = []
    /// Records gathered so far.
    var count = 0
    /// The entity table every row of the batch names, nil when they name more than one: then it
    /// is written into the statements as text instead of bound to every row (an import's rows
    /// bound it about ten times a record).
    private(set) var entity: String?
    private var entities = 0

    /// The entity as an SQL string literal when the batch holds one entity's rows alone.
    var entityLiteral: String? {
        guard entities == 1, let entity else { return nil }
        return SQLQuoting.literal(entity)
    }

    private mutating func note(_ table: String) {
        if entities == 0 {
            entity = table
            entities = 1
        } else if entities == 1, entity != table {
            entities = 2
        }
    }

    var isEmpty: Bool { count == 0 }

    /// Notes one `matchBy` name of a new record, as `write` would add it.
    mutating func addName(_ name: String, record: String, entity: String) {
        note(entity)
        names.append((entity, record, name))
        let (key, words) = EntityNameKey.key(name)
        guard !key.isEmpty else { return }
        let id = entity + "\u{0}" + key
        if let row = keys[id] {
            keyRows[row].holders += 1
        } else {
            keys[id] = keyRows.count
            keyRows.append((entity, key.count, key, name, 1, words))
        }
    }

    mutating func addDocument(_ document: SearchDocument, record: String, entity: String) {
        note(entity)
        let (title, body, keywords) = StoreTransaction.searchText(document)
        documents.append(
            (
                entity, record, document.title, document.subtitle, document.expires.map(ISODate.format),
                title.joined(separator: " "), body.joined(separator: " "), keywords.joined(separator: " ")
            ))
        vocabulary.formUnion(title)
        vocabulary.formUnion(body)
        vocabulary.formUnion(keywords)
    }

    mutating func clear() {
        names.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        keyRows.removeAll(keepingCapacity: true)
        documents.removeAll(keepingCapacity: true)
        vocabulary.removeAll(keepingCapacity: true)
        count = 0
        entity = nil
        entities = 0
    }
}

extension StoreTransaction {
    /// Writes a new record (no stored record has its id) as `write(_:_:replacing: false)` does,
    /// its names and search document gathered in `batch` (SQLite only).
    func writeNew(_ record: Record, _ table: Store.Table, into batch: inout ImportBatch) throws {
        try writeRow(record, table, replacing: false)
        for property in table.entity.matchBy {
            if case .string(let name)? = record[property], !name.isEmpty {
                batch.addName(name, record: record.id, entity: table.name)
            }
        }
        if let indexer = store.indexer, indexer.isSearchable(table.entity.name),
            let document = try indexer.document(for: record, in: self)
        {
            batch.addDocument(document, record: record.id, entity: table.name)
        }
        batch.count += 1
    }

    /// Writes what `batch` gathered and empties it.
    func flush(_ batch: inout ImportBatch) throws {
        guard !batch.isEmpty else { return }
        let literal = batch.entityLiteral
        if !batch.names.isEmpty {
            // The full-text rows get the ids SQLite would give them one at a time: the next ones.
            let top = try db.fetchValue(Int64.self, sql: "SELECT max(rowid) FROM _names") ?? 0
            var rows: [(any DatabaseValueConvertible)?] = []
            rows.reserveCapacity(batch.names.count * 4)
            for (offset, name) in batch.names.enumerated() {
                rows.append(top + 1 + Int64(offset))
                if literal == nil { rows.append(name.entity) }
                rows.append(name.record)
                rows.append(name.name)
            }
            try insertRows(
                "INSERT INTO _names (rowid, entity, record, name) VALUES ", width: 4, rows, entity: literal, at: 1)
            // Which full-text rows belong to which record: read back from the rows just written, in
            // one statement (bound row by row, the same rows cost a value bound each time again).
            try db.execute(
                sql: "INSERT INTO _name_rows (entity, record, name_row)"
                    + " SELECT entity, record, rowid FROM _names WHERE rowid > ? AND rowid <= ?",
                arguments: [top, top + Int64(batch.names.count)])
        }
        if !batch.keyRows.isEmpty {
            try flushKeys(batch, entity: literal)
        }
        if !batch.documents.isEmpty {
            try flushDocuments(batch, entity: literal)
        }
        batch.clear()
    }

    /// The name index's keys: those already held gain holders, new ones come in (in the order
    /// first met, so with the ids one at a time would give them) with their words.
    private func flushKeys(_ batch: ImportBatch, entity literal: String?) throws {
        var held: [Int: Int64] = [:]  // row of `keyRows` → id of the stored key
        var start = 0
        while start < batch.keyRows.count {
            let count = min(ImportBatch.rowsPerStatement, batch.keyRows.count - start)
            var arguments: [(any DatabaseValueConvertible)?] = []
            arguments.reserveCapacity(count * 4)
            // Field by field, never the whole row copied; appended one by one, not through an
            // array literal a row (both were 5 % of an import's flush).
            for row in start..<(start + count) {
                arguments.append(row)
                if literal == nil { arguments.append(batch.keyRows[row].entity) }
                arguments.append(batch.keyRows[row].length)
                arguments.append(batch.keyRows[row].key)
            }
            for found in try db.fetchAll(
                sql: "WITH v(row, entity, length, key) AS (VALUES "
                    + Self.placeholders(width: 4, rows: count, entity: literal, at: 1)
                    + ") SELECT v.row, k.id FROM v JOIN _name_keys AS k"
                    + " ON k.entity = v.entity AND k.length = v.length AND k.key = v.key",
                arguments: arguments)
            {
                held[found[0] as Int] = found[1] as Int64
            }
            start += count
        }
        for (row, id) in held.sorted(by: { $0.key < $1.key }) {
            try db.execute(
                sql: "UPDATE _name_keys SET holders = holders + ? WHERE id = ?",
                arguments: [batch.keyRows[row].holders, id])
        }
        let new = batch.keyRows.indices.filter { held[$0] == nil }
        var words: [(any DatabaseValueConvertible)?] = []
        start = 0
        while start < new.count {
            let count = min(ImportBatch.rowsPerStatement, new.count - start)
            var arguments: [(any DatabaseValueConvertible)?] = []
            arguments.reserveCapacity(count * 7)
            for row in new[start..<(start + count)] {
                let key = batch.keyRows[row].key
                if literal == nil { arguments.append(batch.keyRows[row].entity) }
                arguments.append(batch.keyRows[row].length)
                arguments.append(key)
                arguments.append(batch.keyRows[row].name)
                arguments.append(batch.keyRows[row].holders)
                arguments.append(Int64(EntityNameKey.mask(key)))
                arguments.append(Store.reversedKey(key))
            }
            // A table with an integer key numbers a statement's new rows one after another.
            let last = try db.insert(
                sql: "INSERT INTO _name_keys (entity, length, key, name, holders, mask, yek) VALUES "
                    + Self.placeholders(width: 7, rows: count, entity: literal, at: 0),
                arguments: arguments, returning: "id")
            for (offset, row) in new[start..<(start + count)].enumerated() {
                let id = last - Int64(count - 1 - offset)
                let keyWords = batch.keyRows[row].words
                // A key's few words, each once (a `Set` a key cost more than the rows' binding).
                for (index, word) in keyWords.enumerated() where !keyWords[..<index].contains(word) {
                    if literal == nil { words.append(batch.keyRows[row].entity) }
                    words.append(word)
                    words.append(batch.keyRows[row].length)
                    words.append(id)
                }
            }
            start += count
        }
        try insertRows(
            "INSERT INTO _name_words (entity, word, length, id) VALUES ", width: 4, words, entity: literal, at: 0,
            tail: " ON CONFLICT DO NOTHING")
    }

    /// The batch's search items, then their documents: those up to the last multiple of
    /// `searchFlushSize` among the new items' ids straight into the FTS5 table (with whatever was
    /// pending: one record at a time, the item with that id would have moved them), the rest pending.
    private func flushDocuments(_ batch: ImportBatch, entity literal: String?) throws {
        var rows: [(any DatabaseValueConvertible)?] = []
        rows.reserveCapacity(batch.documents.count * 5)
        for document in batch.documents {
            if literal == nil { rows.append(document.entity) }
            rows.append(document.record)
            rows.append(document.title)
            rows.append(document.subtitle)
            rows.append(document.expires)
        }
        // One multi-row INSERT per chunk: an AUTOINCREMENT table numbers a statement's rows one after another.
        var first: [Int64] = []
        let width = literal == nil ? 5 : 4
        var start = 0
        while start < batch.documents.count {
            let count = min(ImportBatch.rowsPerStatement, batch.documents.count - start)
            let last = try db.insert(
                sql: "INSERT INTO _search_items (entity, record, title, subtitle, expires) VALUES "
                    + Self.placeholders(width: 5, rows: count, entity: literal, at: 0),
                arguments: Array(rows[(start * width)..<((start + count) * width)]), returning: "doc")
            first.append(last - Int64(count) + 1)
            start += count
        }
        var docs: [Int64] = []
        docs.reserveCapacity(batch.documents.count)
        for (chunk, doc) in first.enumerated() {
            let count = min(ImportBatch.rowsPerStatement, batch.documents.count - chunk * ImportBatch.rowsPerStatement)
            for offset in 0..<count { docs.append(doc + Int64(offset)) }
        }
        let flushed = docs.last.map { $0 / Self.searchFlushSize * Self.searchFlushSize } ?? 0
        if let firstDoc = docs.first, flushed >= firstDoc { try flushSearch() }
        var direct: [(any DatabaseValueConvertible)?] = []
        var pending: [(any DatabaseValueConvertible)?] = []
        for (doc, document) in zip(docs, batch.documents) {
            if doc <= flushed {
                direct.append(doc)
                direct.append(document.title2)
                direct.append(document.body)
                direct.append(document.keywords)
            } else {
                pending.append(doc)
                pending.append(document.title2)
                pending.append(document.body)
                pending.append(document.keywords)
            }
        }
        try insertRows("INSERT INTO _search (rowid, title, body, keywords) VALUES ", width: 4, direct)
        try insertRows("INSERT INTO _search_pending (doc, title, body, keywords) VALUES ", width: 4, pending)
        let words: [(any DatabaseValueConvertible)?] = batch.vocabulary.sorted()
        try insertRows("INSERT INTO _search_vocab (term) VALUES ", width: 1, words, tail: " ON CONFLICT DO NOTHING")
    }

    /// `(?, ?), (?, ?)`: `rows` groups of `width` placeholders; with `entity` (an SQL literal), that
    /// text stands at `position` of each group instead of a placeholder.
    private static func placeholders(width: Int, rows: Int, entity: String? = nil, at position: Int = 0) -> String {
        var parts = Array(repeating: "?", count: width)
        if let entity { parts[position] = entity }
        let row = "(" + parts.joined(separator: ", ") + ")"
        return Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// Inserts `values` as rows of `width`, `ImportBatch.rowsPerStatement` rows to a statement.
    /// With `entity`, each row of `values` holds one value fewer: the entity stands at `position`.
    private func insertRows(
        _ head: String, width: Int, _ values: [(any DatabaseValueConvertible)?], entity: String? = nil,
        at position: Int = 0, tail: String = ""
    ) throws {
        let bound = entity == nil ? width : width - 1
        let rows = values.count / bound
        var start = 0
        while start < rows {
            let count = min(ImportBatch.rowsPerStatement, rows - start)
            try db.execute(
                sql: head + Self.placeholders(width: width, rows: count, entity: entity, at: position) + tail,
                arguments: Array(values[(start * bound)..<((start + count) * bound)]))
            start += count
        }
    }
}
