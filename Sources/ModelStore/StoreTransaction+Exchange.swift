import Foundation
import GRDB
public import IntentModel

/// Records as JSON: for exports and imports, listings and the journal.
extension StoreTransaction {
    /// A record as a JSON object: `id`, `createdAt`, `updatedAt` and each property that has a value.
    public func json(_ record: Record) throws -> [String: JSONValue] {
        let table = try table(record.entity)
        var object: [String: JSONValue] = [:]
        for builtin in IntentGraph.BuiltinProperty.allCases {
            object[builtin.rawValue] = Columns.json(record[builtin], clock: store.clock)
        }
        for column in table.columns {
            if let value = record.values[column.name] { object[column.name] = Columns.json(value, clock: store.clock) }
        }
        return object
    }

    /// A record from a JSON object, checked against the entity's properties. A missing id is made
    /// up, missing stamps are now; a value that does not fit is named with its entity and property.
    public func record(fromJSON object: [String: JSONValue], entity: QualifiedName) throws -> Record {
        let table = try table(entity)
        if object.keys.contains(where: { table.type(of: $0) == nil }),
            let unknown = object.keys.sorted().first(where: { table.type(of: $0) == nil })
        {
            throw StoreError.invalidData("\(entity.name) has no property '\(unknown)'")
        }
        var values: [String: Value] = [:]
        for column in table.columns {
            guard let json = object[column.name], json != .null else { continue }
            guard let value = Columns.value(fromJSON: json, as: column.type, timeZone: store.clock.timeZone) else {
                throw StoreError.invalidData("\(entity.name).\(column.name) must be \(column.type), not \(json)")
            }
            values[column.name] = try checked(
                value, of: "\(entity.name).\(column.name)", cases: table.enumCases[column.name])
        }
        let now = store.clock.now
        func stamp(_ builtin: IntentGraph.BuiltinProperty) throws -> Date {
            guard let json = object[builtin.rawValue] else { return now }
            guard let text = json.string, let date = ISODate.parse(text, timeZone: store.clock.timeZone) else {
                throw StoreError.invalidData("\(entity.name).\(builtin.rawValue) must be an ISO-8601 date")
            }
            return date
        }
        let id: String
        switch object[IntentGraph.BuiltinProperty.id.rawValue] {
        case .string(let text):
            if let problem = ImportChecks.problem(withID: text) {
                throw StoreError.invalidData("\(entity.name).id: \(problem)")
            }
            id = text
        case nil, .null: id = UUID().uuidString.lowercased()
        case let json?: throw StoreError.invalidData("\(entity.name).id must be text, not \(json)")
        }
        return Record(
            entity: entity, id: id, createdAt: try stamp(.createdAt), updatedAt: try stamp(.updatedAt), values: values)
    }

    /// An imported value as a phrase would give it: text without control characters, enum values
    /// as a case's identifier (a case's title or synonym is read as that case, as in a phrase).
    private func checked(_ value: Value, of what: String, cases: [IntentGraph.Enumeration.Case]?) throws -> Value {
        switch value {
        case .string(let text):
            if let problem = ControlCharacters.problem(in: text, what: what) { throw StoreError.invalidData(problem) }
            return value
        case .url(let text):
            if let problem = ControlCharacters.problem(in: text, what: what) { throw StoreError.invalidData(problem) }
            if let problem = ImportChecks.problem(withURL: text) { throw StoreError.invalidData("\(what): \(problem)") }
            return value
        case .enumCase(let text):
            guard let cases else { return value }
            if cases.contains(where: { $0.id == text }) { return value }
            let folded = TextFolding.foldPhrase(text)
            if let found = cases.first(where: { known in
                ([known.id, known.title] + known.synonyms).contains { TextFolding.foldPhrase($0) == folded }
            }) {
                return .enumCase(found.id)
            }
            let ids = cases.map(\.id).joined(separator: ", ")
            throw StoreError.invalidData(
                "\(what) must be one of \(ids) (or their titles and synonyms), not \(JSONValue.string(text))")
        case .array(let items):
            return .array(try items.map { try checked($0, of: what, cases: cases) })
        default:
            return value
        }
    }

    /// Every record by entity. Columns the definitions no longer declare (a migration was
    /// refused) are exported as stored, so nothing is lost on the way out.
    /// A value its column cannot read is exported as stored and handed to `unreadable`.
    public func export(unreadable: (StoreError) -> Void = { _ in }) throws -> StoreExport {
        var records: [String: [[String: JSONValue]]] = [:]
        for (name, table) in store.tables {
            var objects: [[String: JSONValue]] = []
            let sql =
                "SELECT * FROM \(table.quoted) ORDER BY \(store.dialect.quote("createdAt")), \(store.dialect.insertionOrder)"
            for row in try db.fetchAll(sql: sql) {
                objects.append(try exportObject(row, table, unreadable: unreadable))
            }
            records[name.description] = objects
        }
        // Entities the definitions no longer declare: their rows as stored, so nothing is lost.
        for name in try store.orphanedTables(db).keys {
            let sql =
                "SELECT * FROM \(store.dialect.quote(name)) ORDER BY \(store.dialect.quote("createdAt")), \(store.dialect.insertionOrder)"
            records[name] = try db.fetchAll(sql: sql).map { row in
                var object: [String: JSONValue] = [:]
                for column in row.columnNames {
                    if let value = Columns.json(stored: row.value(column) ?? .null) { object[column] = value }
                }
                return object
            }
        }
        return StoreExport(records: records)
    }

    /// Inserts or replaces (by id) the records of an export. Checks everything before writing anything.
    public func importRecords(_ export: StoreExport) throws -> Int {
        var records: [Record] = []
        var origins: [String] = []
        var checks = ImportChecks()
        for (key, items) in export.records.sorted(by: { $0.key < $1.key }) {
            let entity = store.tables.keys.first {
                $0.description.lowercased() == key.lowercased() || $0.name.lowercased() == key.lowercased()
            }
            guard let entity, let table = store.tables[entity] else {
                let known = store.tables.keys.map(\.description).sorted().joined(separator: ", ")
                throw StoreError.invalidData("unknown entity '\(key)' (known: \(known))")
            }
            for (index, fields) in items.enumerated() {
                do {
                    let record = try record(fromJSON: fields, entity: entity)
                    let missing = table.entity.properties.first {
                        !$0.isBuiltin && !$0.isOptional && $0.defaultValue == nil && record.values[$0.name] == nil
                    }
                    if let missing { throw StoreError.invalidData("\(entity.name).\(missing.name) needs a value") }
                    try checks.admit(id: record.id, entity: entity) {
                        records.contains { $0.entity == entity && $0.id == record.id }
                    }
                    records.append(record)
                    origins.append("\(key)[\(index)]")
                } catch let error as StoreError {
                    throw StoreError.invalidData("\(key)[\(index)]: \(error)")
                }
            }
        }
        // A reference names a record that is stored or imported with it, as a phrase's would.
        let imported = Set(records.map { "\($0.entity.description)#\($0.id)" })
        for (record, origin) in zip(records, origins) {
            guard let table = store.tables[record.entity] else { continue }
            for (column, target, id) in Self.references(of: record, in: table)
            where !imported.contains("\(target.description)#\(id)") {
                if try self.record(target, id: id) == nil {
                    throw StoreError.invalidData(
                        "\(origin): \(record.entity.name).\(column) names no \(target.name) with the id '\(id)'")
                }
            }
        }
        for record in records {
            guard let table = store.tables[record.entity] else { continue }
            var complete = record
            for property in table.entity.properties where !property.isBuiltin && complete.values[property.name] == nil {
                if let value = property.defaultValue { complete.values[property.name] = store.clock.resolve(value) }
            }
            let before = try self.record(record.entity, id: record.id)
            try write(complete, table, replacing: true)
            changes.append((record.entity, record.id, before, complete))
        }
        return records.count
    }
}

extension StoreTransaction {
    /// The records `record` names in its entity-typed columns: (column, entity, id), in column order.
    static func references(of record: Record, in table: Store.Table) -> [(
        column: String, entity: QualifiedName, id: String
    )] {
        var found: [(column: String, entity: QualifiedName, id: String)] = []
        for column in table.columns {
            guard let target = (column.type.element ?? column.type).entityName, let value = record.values[column.name]
            else { continue }
            switch value {
            case .string(let id): found.append((column.name, target, id))
            case .array(let items):
                for case .string(let id) in items { found.append((column.name, target, id)) }
            default: break
            }
        }
        return found
    }
}
