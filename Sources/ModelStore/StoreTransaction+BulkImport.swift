import Foundation
import GRDB
public import IntentModel

/// `intents store import` over a stream: each record is checked, written and journaled as it is
/// read, inside the caller's one transaction, with prepared statements. A bad record anywhere
/// throws, and the transaction leaves the store as it was; memory holds one record at a time
/// (and the references not yet resolved), whatever the file's size.
extension StoreTransaction {
    /// Imports what `stream` reads, journaled as one execution of `intent` (so `undo` takes it
    /// back: replaced records get their stored version again, new ones go). Returns how many.
    public func importRecords(
        from stream: inout JSONRecordStream, journalAs intent: QualifiedName, parameters: [String: JSONValue]
    ) throws -> Int {
        let db = try sqliteDatabase
        // A bigger page cache for the length of the import: every index of a big table is written
        // at scattered places, and SQLite's default 2 MB would read pages back from disk.
        let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2_000
        try db.execute(sql: "PRAGMA cache_size = -65536")
        defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
        try db.execute(
            sql: "INSERT INTO _executions (intent, parameters, dialog, at) VALUES (?, ?, '', ?)",
            arguments: [intent.description, JSONText.compact(.object(parameters)), ISODate.format(store.clock.now)])
        let execution = db.lastInsertedRowID
        let journal = try db.cachedStatement(
            sql: "INSERT INTO _changes (execution, seq, entity, record, before, after) VALUES (?, ?, ?, ?, ?, NULL)")
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
                    try journaled(record.id, of: entity, in: execution)
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
            if perTable[table.name] == Self.deferIndexesAfter, deferred.insert(table.name).inserted {
                for index in store.indexes where index.table == table.name {
                    try db.execute(sql: "DROP INDEX IF EXISTS \(store.dialect.quote(index.name))")
                }
            }
            let before = try self.record(entity, id: record.id)
            try write(record, table, replacing: before != nil)
            try journal.execute(arguments: [
                execution, count, entity.description, record.id,
                try before.map { JSONText.compact(.object(try json($0))) },
            ])
            count += 1
        }
        for reference in unresolved where try !exists(reference.target, id: reference.id) {
            throw StoreError.invalidData(
                "\(reference.origin): \(reference.entity).\(reference.column) names no \(reference.target.name) with the id '\(reference.id)'"
            )
        }
        for index in store.indexes where deferred.contains(index.table) { try db.execute(sql: index.sql) }
        try db.execute(
            sql: "UPDATE _executions SET dialog = ? WHERE id = ?", arguments: ["Imported \(count) records", execution])
        return count
    }

    /// Records of one table after which its secondary indexes wait for the end of the import.
    static let deferIndexesAfter = 10_000

    private func nextEvent(_ stream: inout JSONRecordStream) throws -> JSONRecordStream.Event? {
        do {
            return try stream.next()
        } catch .shape(let message) {
            throw StoreError.invalidData(message)
        }
    }

    /// Whether execution `execution` (this import) journaled a record of `entity` with this id.
    private func journaled(_ id: String, of entity: QualifiedName, in execution: Int64) throws -> Bool {
        let db = try sqliteDatabase
        return try Bool.fetchOne(
            db.cachedStatement(
                sql: "SELECT EXISTS (SELECT 1 FROM _changes WHERE execution = ? AND entity = ? AND record = ?)"),
            arguments: [execution, entity.description, id]) ?? false
    }

    private func exists(_ entity: QualifiedName, id: String) throws -> Bool {
        let table = try table(entity)
        let db = try sqliteDatabase
        return try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(table.quoted) WHERE id = ?)"), arguments: [id])
            ?? false
    }
}
