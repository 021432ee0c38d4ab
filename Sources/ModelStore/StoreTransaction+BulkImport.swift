import Foundation
import GRDB
public import IntentModel

/// `intents store import` over a stream: each record is checked, written and journaled as it is
/// read, inside the caller's one transaction, with prepared statements (SQLite) or the journal's
/// rows many to a statement (PostgreSQL). A bad record anywhere
/// throws, and the transaction leaves the store as it was; memory holds one record at a time
/// (and the references not yet resolved), whatever the file's size.
extension StoreTransaction {
    /// Imports what `stream` reads, journaled as one execution of `intent` (so `undo` takes it
    /// back: replaced records get their stored version again, new ones go). Returns how many.
    public func importRecords(
        from stream: inout JSONRecordStream, journalAs intent: QualifiedName, parameters: [String: JSONValue]
    ) throws -> Int {
        if !db.isPostgres {
            // A bigger page cache for the length of the import: every index of a big table is written
            // at scattered places, and SQLite's default 2 MB would read pages back from disk.
            let cacheSize = try db.fetchValue(Int.self, sql: "PRAGMA cache_size") ?? -2_000
            try db.execute(sql: "PRAGMA cache_size = -65536", arguments: [])
            defer { _ = try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)", arguments: []) }
            return try importRecords(from: &stream, journalAs: intent, parameters: parameters, journalRows: 100)
        }
        // PostgreSQL: the journal's rows go in groups of many per statement (a round trip each).
        return try importRecords(from: &stream, journalAs: intent, parameters: parameters, journalRows: 500)
    }

    private func importRecords(
        from stream: inout JSONRecordStream, journalAs intent: QualifiedName, parameters: [String: JSONValue],
        journalRows: Int
    ) throws -> Int {
        let execution = try db.insert(
            sql: "INSERT INTO _executions (intent, parameters, dialog, at) VALUES (?, ?, '', ?)",
            arguments: [intent.description, JSONText.compact(.object(parameters)), ISODate.format(store.clock.now)],
            returning: "id")
        var pending: [(any DatabaseValueConvertible)?] = []
        func flushJournal() throws {
            guard !pending.isEmpty else { return }
            let rows = pending.count / 5
            try db.execute(
                sql: "INSERT INTO _changes (execution, seq, entity, record, before, after) VALUES "
                    + Array(repeating: "(?, ?, ?, ?, ?, NULL)", count: rows).joined(separator: ", "),
                arguments: pending)
            pending.removeAll(keepingCapacity: true)
        }
        var entities: [String: Store.Table] = [:]
        /// References to records not (yet) stored: checked again at the end, when every record is in.
        var unresolved: [(origin: String, entity: String, column: String, target: QualifiedName, id: String)] = []
        var count = 0
        var checks = ImportChecks()
        // A table that takes many records has its secondary indexes dropped while they come in and
        // made again at the end, in the same transaction: sorting once beats inserting into eight
        // B-trees a record at a time (a failed import rolls the drop back with everything else).
        var perTable: [String: Int] = [:]
        var deferred: Set<String> = []
        // SQLite: a new record's names and search document are gathered and written many at a time;
        // a table empty when the import began holds no record an imported one replaces.
        var batch = ImportBatch()
        var emptyAtStart: [String: Bool] = [:]
        while let event = try nextEvent(&stream) {
            guard case .record(let key, let index, let fields) = event else {
                guard case .list(let key) = event else { continue }
                let entity = store.tables.keys.first {
                    $0.description.lowercased() == key.lowercased() || $0.name.lowercased() == key.lowercased()
                }
                guard let entity, let found = store.tables[entity] else {
                    let known = store.tables.keys.map(\.description).sorted().joined(separator: ", ")
                    throw StoreError.invalidData("unknown entity '\(key)' (known: \(known))")
                }
                entities[key] = found
                if !db.isPostgres, emptyAtStart[found.name] == nil {
                    emptyAtStart[found.name] =
                        try db.fetchValue(Bool.self, sql: "SELECT NOT EXISTS (SELECT 1 FROM \(found.quoted))") ?? false
                }
                continue
            }
            guard let table = entities[key] else { continue }
            let entity = table.entity.name
            var record: Record
            do {
                record = try self.record(fromJSON: fields, entity: entity)
                let missing = table.entity.properties.first {
                    !$0.isBuiltin && !$0.isOptional && $0.defaultValue == nil && record.values[$0.name] == nil
                }
                if let missing { throw StoreError.invalidData("\(entity.name).\(missing.name) needs a value") }
                try checks.admit(id: record.id, entity: entity) {
                    try flushJournal()
                    return try journaled(record.id, of: entity, in: execution)
                }
            } catch let error as StoreError {
                throw StoreError.invalidData("\(key)[\(index)]: \(error)")
            }
            for property in table.entity.properties where !property.isBuiltin && record.values[property.name] == nil {
                if let value = property.defaultValue { record.values[property.name] = store.clock.resolve(value) }
            }
            for (column, target, id) in Self.references(of: record, in: table) where try !exists(target, id: id) {
                unresolved.append(("\(key)[\(index)]", entity.name, column, target, id))
            }
            perTable[table.name, default: 0] += 1
            let deferAfter = emptyAtStart[table.name] == true ? Self.deferIndexesOfEmptyAfter : Self.deferIndexesAfter
            if perTable[table.name] == deferAfter, deferred.insert(table.name).inserted {
                for index in store.indexes where index.table == table.name {
                    try db.execute(sql: "DROP INDEX IF EXISTS \(store.dialect.quote(index.name))", arguments: [])
                }
            }
            let before = emptyAtStart[table.name] == true ? nil : try self.record(entity, id: record.id)
            if db.isPostgres {
                try write(record, table, replacing: before != nil)
            } else if before == nil {
                try writeNew(record, table, into: &batch)
                if batch.count >= ImportBatch.records { try flush(&batch) }
            } else {
                // What the batch holds goes first, so that rows keep the order of the file.
                try flush(&batch)
                try write(record, table, replacing: true)
            }
            pending.append(execution)
            pending.append(count)
            pending.append(entity.description)
            pending.append(record.id)
            pending.append(try before.map { JSONText.compact(.object(try json($0))) })
            if pending.count >= journalRows * 5 { try flushJournal() }
            count += 1
        }
        try flushJournal()
        try flush(&batch)
        for reference in unresolved where try !exists(reference.target, id: reference.id) {
            throw StoreError.invalidData(
                "\(reference.origin): \(reference.entity).\(reference.column) names no \(reference.target.name) with the id '\(reference.id)'"
            )
        }
        for index in store.indexes where deferred.contains(index.table) {
            try db.execute(sql: index.sql, arguments: [])
        }
        try db.execute(
            sql: "UPDATE _executions SET dialog = ? WHERE id = ?", arguments: ["Imported \(count) records", execution])
        return count
    }

    /// Records of one table after which its secondary indexes wait for the end of the import.
    static let deferIndexesAfter = 10_000
    /// The same for a table empty when the import began: making its indexes again costs a sort of
    /// the imported rows alone, so they wait as soon as the import is more than a few records
    /// (kept up a record at a time they were 10 % of importing 10,000 tasks, BENCHMARKS.md
    /// 2026-11-26, `speed5`).
    static let deferIndexesOfEmptyAfter = 500

    private func nextEvent(_ stream: inout JSONRecordStream) throws -> JSONRecordStream.Event? {
        do {
            return try stream.next()
        } catch .shape(let message) {
            throw StoreError.invalidData(message)
        }
    }

    /// Whether execution `execution` (this import) journaled a record of `entity` with this id.
    private func journaled(_ id: String, of entity: QualifiedName, in execution: Int64) throws -> Bool {
        try db.fetchValue(
            Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM _changes WHERE execution = ? AND entity = ? AND record = ?)",
            arguments: [execution, entity.description, id]) ?? false
    }

    private func exists(_ entity: QualifiedName, id: String) throws -> Bool {
        let table = try table(entity)
        return try db.fetchValue(
            Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM \(table.quoted) WHERE id = ?)", arguments: [id])
            ?? false
    }
}
