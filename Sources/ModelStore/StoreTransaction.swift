public import Foundation
import GRDB
public import IntentModel

/// Reads and writes inside one `Store.read` or `Store.write`. Every change is remembered, so the
/// execution that made it can be journaled and undone.
public final class StoreTransaction {
    let db: Database
    let store: Store
    /// Changes so far, in order: (entity, id, before, after); nil before means created, nil after deleted.
    public private(set) var changes: [(entity: QualifiedName, id: String, before: Record?, after: Record?)] = []

    init(db: Database, store: Store) {
        self.db = db
        self.store = store
    }

    private func table(_ entity: QualifiedName) throws -> Store.Table {
        guard let table = store.tables[entity] else { throw StoreError.invalidData("unknown entity \(entity)") }
        return table
    }

    // MARK: Reading

    public func fetch(_ query: RecordQuery) throws -> [Record] {
        let table = try table(query.entity)
        var sql = "SELECT * FROM \(table.quoted)"
        var arguments: [DatabaseValue] = []
        if let condition = query.condition {
            sql += " WHERE " + condition.sql
            arguments += condition.arguments.map(\.databaseValue)
        }
        let order = query.sort.flatMap { key -> [String] in
            let column = SQL.quote(key.property)
            let direction = key.descending ? " DESC" : ""
            // Enum columns sort by declared case order; missing values go last either way.
            var expression = column
            if let cases = table.enumOrder[key.property] {
                expression = "CASE \(column) " + cases.enumerated().map { "WHEN '\($0.element.replacingOccurrences(of: "'", with: "''"))' THEN \($0.offset)" }.joined(separator: " ") + " END"
            }
            return ["(\(column) IS NULL)", expression + direction]
        }
        sql += " ORDER BY " + (order + ["createdAt", "rowid"]).joined(separator: ", ")
        if let limit = query.limit { sql += " LIMIT \(max(0, limit))" }
        return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { record(from: $0, table) }
    }

    public func count(_ query: RecordQuery) throws -> Int {
        guard query.limit == nil else { return try fetch(query).count }
        let table = try table(query.entity)
        var sql = "SELECT count(*) FROM \(table.quoted)"
        var arguments: [DatabaseValue] = []
        if let condition = query.condition {
            sql += " WHERE " + condition.sql
            arguments = condition.arguments.map(\.databaseValue)
        }
        return try Int.fetchOne(db, sql: sql, arguments: StatementArguments(arguments)) ?? 0
    }

    public func record(_ entity: QualifiedName, id: String) throws -> Record? {
        let table = try table(entity)
        return try Row.fetchOne(db, sql: "SELECT * FROM \(table.quoted) WHERE id = ?", arguments: [id]).map { record(from: $0, table) }
    }

    /// Records of `entity` whose `matchBy` names contain every word of `text` (words as prefixes),
    /// through the full-text index; with the name that matched.
    public func search(_ entity: QualifiedName, text: String, limit: Int = 20) throws -> [(record: Record, name: String)] {
        let words = text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { "\"" + $0.replacingOccurrences(of: "\"", with: "") + "\"*" }
        guard !words.isEmpty else { return [] }
        let rows = try Row.fetchAll(db, sql: "SELECT record, name FROM _names WHERE _names MATCH ? AND entity = ? ORDER BY rank LIMIT ?",
                                    arguments: ["name: (" + words.joined(separator: " ") + ")", entity.description, limit])
        var seen: Set<String> = []
        var results: [(Record, String)] = []
        for row in rows {
            let id: String = row["record"]
            guard seen.insert(id).inserted, let record = try record(entity, id: id) else { continue }
            results.append((record, row["name"]))
        }
        return results
    }

    /// Every `matchBy` name in the store, for the phrase matcher's entity index.
    public func names() throws -> [(entity: QualifiedName, name: String)] {
        var byName: [String: QualifiedName] = [:]
        for table in store.tables.values { byName[table.name] = table.entity.name }
        return try Row.fetchAll(db, sql: "SELECT entity, name FROM _names").compactMap { row in
            guard let entity = byName[row["entity"]] else { return nil }
            return (entity, row["name"])
        }
    }

    private func record(from row: Row, _ table: Store.Table) -> Record {
        var values: [String: Value] = [:]
        for column in table.columns {
            if let value = Columns.decode(row[column.name] ?? .null, as: column.type) { values[column.name] = value }
        }
        return Record(entity: table.entity.name, id: row["id"], createdAt: Self.moment(row["createdAt"]), updatedAt: Self.moment(row["updatedAt"]), values: values)
    }

    /// A stamp as stored (UTC, `Z`).
    private static func moment(_ text: String?) -> Date {
        text.flatMap { ISODate.parse($0, timeZone: .gmt) } ?? Date(timeIntervalSince1970: 0)
    }

    // MARK: Writing

    /// Inserts a record; properties not given take their defaults. Required ones must be given.
    @discardableResult
    public func insert(_ entity: QualifiedName, values: [String: Value], id: String? = nil, now: Date? = nil) throws -> Record {
        let now = now ?? store.clock.now
        let table = try table(entity)
        var complete: [String: Value] = [:]
        for column in table.columns {
            let property = table.entity.property(column.name)
            if let value = values[column.name] {
                complete[column.name] = value
            } else if let value = property?.defaultValue {
                complete[column.name] = store.clock.resolve(value, at: now)
            } else if property?.isOptional == false {
                throw StoreError.invalidData("\(entity.name).\(column.name) needs a value")
            }
        }
        let record = Record(entity: entity, id: id ?? UUID().uuidString.lowercased(), createdAt: now, updatedAt: now, values: complete)
        try write(record, table, replacing: false)
        changes.append((entity, record.id, nil, record))
        return record
    }

    /// Writes new values of some properties (nil clears one) and stamps `updatedAt`.
    @discardableResult
    public func update(_ record: Record, set values: [String: Value?], now: Date? = nil) throws -> Record {
        let table = try table(record.entity)
        guard let before = try self.record(record.entity, id: record.id) else { throw StoreError.missingRecord(record.entity, record.id) }
        var after = before
        for (name, value) in values {
            guard table.type(of: name) != nil, !["id", "createdAt", "updatedAt"].contains(name) else { continue }
            if let value { after.values[name] = value } else { after.values[name] = nil }
        }
        after.updatedAt = now ?? store.clock.now
        try write(after, table, replacing: true)
        changes.append((record.entity, record.id, before, after))
        return after
    }

    public func delete(_ record: Record) throws {
        let table = try table(record.entity)
        guard let before = try self.record(record.entity, id: record.id) else { throw StoreError.missingRecord(record.entity, record.id) }
        try db.execute(sql: "DELETE FROM \(table.quoted) WHERE id = ?", arguments: [record.id])
        try forgetNames(record.id, table)
        changes.append((record.entity, record.id, before, nil))
    }

    private func write(_ record: Record, _ table: Store.Table, replacing: Bool) throws {
        let columns = ["id", "createdAt", "updatedAt"] + table.columns.map(\.name)
        let values: [DatabaseValue] = [
            record.id.databaseValue, ISODate.format(record.createdAt).databaseValue, ISODate.format(record.updatedAt).databaseValue,
        ] + table.columns.map { Columns.encode(record.values[$0.name], as: $0.type, clock: store.clock) }
        let verb = replacing ? "INSERT OR REPLACE" : "INSERT"
        try db.execute(sql: "\(verb) INTO \(table.quoted) (\(columns.map(SQL.quote).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))",
                       arguments: StatementArguments(values))
        if replacing { try forgetNames(record.id, table) }
        for property in table.entity.matchBy {
            if case .string(let name)? = record[property], !name.isEmpty {
                try db.execute(sql: "INSERT INTO _names (entity, record, name) VALUES (?, ?, ?)", arguments: [table.name, record.id, name])
                try db.execute(sql: "INSERT INTO _name_rows (entity, record, name_row) VALUES (?, ?, ?)", arguments: [table.name, record.id, db.lastInsertedRowID])
            }
        }
    }

    /// Removes a record's names from the full-text index.
    private func forgetNames(_ id: String, _ table: Store.Table) throws {
        try db.execute(sql: "DELETE FROM _names WHERE rowid IN (SELECT name_row FROM _name_rows WHERE entity = ? AND record = ?)", arguments: [table.name, id])
        try db.execute(sql: "DELETE FROM _name_rows WHERE entity = ? AND record = ?", arguments: [table.name, id])
    }

    // MARK: Journal

    /// Records an executed intent with the changes made so far in this transaction, and its donation.
    /// Returns the execution's number.
    @discardableResult
    public func journal(intent: QualifiedName, parameters: [String: Any], dialog: String, donation: [String: Any]?, now: Date? = nil) throws -> Int64 {
        let at = ISODate.format(now ?? store.clock.now)
        try db.execute(sql: "INSERT INTO _executions (intent, parameters, dialog, at) VALUES (?, ?, ?, ?)",
                       arguments: [intent.description, JSON.text(parameters), dialog, at])
        let execution = db.lastInsertedRowID
        for (seq, change) in changes.enumerated() {
            try db.execute(sql: "INSERT INTO _changes (execution, seq, entity, record, before, after) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [execution, seq, change.entity.description, change.id,
                                       change.before.map { JSON.text(try! self.jsonObject($0)) }, change.after.map { JSON.text(try! self.jsonObject($0)) }])
        }
        if let donation {
            try db.execute(sql: "INSERT INTO _donations (intent, parameters, at) VALUES (?, ?, ?)", arguments: [intent.description, JSON.text(donation), at])
        }
        changes.removeAll()
        return execution
    }

    /// Reverts the most recent execution that changed something and is not undone yet.
    /// Returns what was undone (intent and its answer), or nil when there is nothing to undo.
    public func undoLast() throws -> (intent: String, dialog: String, changes: Int)? {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT id, intent, dialog FROM _executions e WHERE undone = 0 AND EXISTS (SELECT 1 FROM _changes c WHERE c.execution = e.id)
            ORDER BY id DESC LIMIT 1
            """) else { return nil }
        let execution: Int64 = row["id"]
        let changeRows = try Row.fetchAll(db, sql: "SELECT entity, record, before, after FROM _changes WHERE execution = ? ORDER BY seq DESC", arguments: [execution])
        for change in changeRows {
            let entityName: String = change["entity"]
            guard let table = store.tables.values.first(where: { $0.name == entityName }) else {
                throw StoreError.invalidData("cannot undo: \(entityName) is no longer defined")
            }
            let id: String = change["record"]
            let current = try record(table.entity.name, id: id)
            if let before: String = change["before"] {
                let record = try self.record(fromJSON: JSON.object(before) as? [String: Any] ?? [:], entity: table.entity.name)
                try write(record, table, replacing: true)
                changes.append((table.entity.name, id, current, record))
            } else {
                try db.execute(sql: "DELETE FROM \(table.quoted) WHERE id = ?", arguments: [id])
                try forgetNames(id, table)
                changes.append((table.entity.name, id, current, nil))
            }
        }
        try db.execute(sql: "UPDATE _executions SET undone = 1 WHERE id = ?", arguments: [execution])
        return (row["intent"], row["dialog"], changeRows.count)
    }

    /// Recent executions, newest first: (number, intent, parameters JSON, dialog, at, undone).
    public func executions(limit: Int = 20) throws -> [(id: Int64, intent: String, parameters: String, dialog: String, at: String, undone: Bool)] {
        try Row.fetchAll(db, sql: "SELECT * FROM _executions ORDER BY id DESC LIMIT ?", arguments: [limit]).map {
            ($0["id"], $0["intent"], $0["parameters"], $0["dialog"], $0["at"], $0["undone"])
        }
    }

    /// Donations, newest first: (intent, parameters JSON, at).
    public func donations(limit: Int = 50) throws -> [(intent: String, parameters: String, at: String)] {
        try Row.fetchAll(db, sql: "SELECT * FROM _donations ORDER BY id DESC LIMIT ?", arguments: [limit]).map { ($0["intent"], $0["parameters"], $0["at"]) }
    }

    // MARK: JSON (export, import, journal)

    /// A record as a JSON object: `id`, `createdAt`, `updatedAt` and each property that has a value.
    public func jsonObject(_ record: Record) throws -> [String: Any] {
        let table = try table(record.entity)
        var object: [String: Any] = ["id": record.id, "createdAt": ISODate.format(record.createdAt), "updatedAt": ISODate.format(record.updatedAt)]
        for column in table.columns {
            if let value = record.values[column.name] { object[column.name] = Columns.jsonObject(value, as: column.type, clock: store.clock) }
        }
        return object
    }

    /// A record from a JSON object, checked against the entity's properties.
    public func record(fromJSON object: [String: Any], entity: QualifiedName) throws -> Record {
        let table = try table(entity)
        var values: [String: Value] = [:]
        let known = Set(table.columns.map(\.name) + ["id", "createdAt", "updatedAt"])
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw StoreError.invalidData("\(entity.name) has no property '\(unknown)'")
        }
        for column in table.columns {
            guard let raw = object[column.name], !(raw is NSNull) else { continue }
            guard let value = Columns.value(fromJSON: raw, as: column.type, timeZone: store.clock.timeZone) else {
                throw StoreError.invalidData("\(entity.name).\(column.name) must be \(column.type), not \(JSON.text(raw))")
            }
            values[column.name] = value
        }
        let now = store.clock.now
        func stamp(_ key: String) throws -> Date {
            guard let raw = object[key] else { return now }
            guard let text = raw as? String, let date = ISODate.parse(text, timeZone: store.clock.timeZone) else {
                throw StoreError.invalidData("\(entity.name).\(key) must be an ISO-8601 date")
            }
            return date
        }
        let id = (object["id"] as? String) ?? UUID().uuidString.lowercased()
        return Record(entity: entity, id: id, createdAt: try stamp("createdAt"), updatedAt: try stamp("updatedAt"), values: values)
    }

    /// Every record by entity, as `{"App.Entity": [records]}`. Columns the definitions no longer
    /// declare (a migration was refused) are exported as stored, so nothing is lost on the way out.
    public func export() throws -> [String: Any] {
        var result: [String: Any] = [:]
        for (name, table) in store.tables {
            let declared = Set(table.columns.map(\.name) + ["id", "createdAt", "updatedAt"])
            var objects: [[String: Any]] = []
            for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table.quoted) ORDER BY createdAt, rowid") {
                var object = try jsonObject(record(from: row, table))
                for column in row.columnNames where !declared.contains(column) {
                    switch (row[column] as DatabaseValue).storage {
                    case .int64(let number): object[column] = Int(number)
                    case .double(let number): object[column] = number
                    case .string(let text): object[column] = text
                    case .null, .blob: break
                    }
                }
                objects.append(object)
            }
            result[name.description] = objects
        }
        return result
    }

    /// Inserts or replaces (by id) the records of an export. Checks everything before writing anything.
    public func importRecords(_ object: [String: Any]) throws -> Int {
        var records: [Record] = []
        for (key, value) in object.sorted(by: { $0.key < $1.key }) {
            guard let entity = store.tables.keys.first(where: { $0.description.lowercased() == key.lowercased() || $0.name.lowercased() == key.lowercased() }) else {
                throw StoreError.invalidData("unknown entity '\(key)' (known: \(store.tables.keys.map(\.description).sorted().joined(separator: ", ")))")
            }
            guard let items = value as? [Any] else { throw StoreError.invalidData("'\(key)' must be a list of records") }
            for (index, item) in items.enumerated() {
                guard let fields = item as? [String: Any] else { throw StoreError.invalidData("\(key)[\(index)] must be an object") }
                do {
                    let record = try record(fromJSON: fields, entity: entity)
                    if let property = store.tables[entity]?.entity.properties.first(where: { !$0.isBuiltin && !$0.isOptional && $0.defaultValue == nil && record.values[$0.name] == nil }) {
                        throw StoreError.invalidData("\(entity.name).\(property.name) needs a value")
                    }
                    records.append(record)
                } catch let error as StoreError {
                    throw StoreError.invalidData("\(key)[\(index)]: \(error)")
                }
            }
        }
        for record in records {
            var complete = record
            for property in store.tables[record.entity]?.entity.properties ?? [] where !property.isBuiltin && complete.values[property.name] == nil {
                if let value = property.defaultValue { complete.values[property.name] = store.clock.resolve(value) }
            }
            let before = try self.record(record.entity, id: record.id)
            try write(complete, store.tables[record.entity]!, replacing: true)
            changes.append((record.entity, record.id, before, complete))
        }
        return records.count
    }
}

extension SQLArgument {
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .text(let text): text.databaseValue
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        }
    }
}

/// JSON text for the journal, answers and exports: keys sorted, slashes unescaped. Written here
/// rather than through JSONSerialization, which was a tenth of the time of every executed intent.
public enum JSON {
    public static func text(_ object: Any, pretty: Bool = false) -> String {
        var output = ""
        write(object, to: &output, indent: pretty ? "" : nil)
        return output
    }

    public static func object(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    private static func write(_ value: Any, to output: inout String, indent: String?) {
        switch value {
        case let text as String:
            writeString(text, to: &output)
        case let number as NSNumber where type(of: value) is NSNumber.Type:
            // Values decoded by JSONSerialization (a boolean is a number typed as C char).
            if String(cString: number.objCType) == "c" {
                output += number.boolValue ? "true" : "false"
            } else if number.doubleValue == number.doubleValue.rounded(), abs(number.doubleValue) < 1e15 {
                output += String(number.int64Value)
            } else {
                output += String(number.doubleValue)
            }
        case let flag as Bool:
            output += flag ? "true" : "false"
        case let number as Int:
            output += String(number)
        case let number as Double:
            output += number.isFinite ? (number == number.rounded() && abs(number) < 1e15 ? String(format: "%.1f", number) : String(number)) : "null"
        case let items as [Any]:
            guard !items.isEmpty else { output += "[]"; return }
            let inner = indent.map { $0 + "  " }
            output += "["
            for (position, item) in items.enumerated() {
                if position > 0 { output += "," }
                if let inner { output += "\n" + inner }
                write(item, to: &output, indent: inner)
            }
            if let indent { output += "\n" + indent }
            output += "]"
        case let fields as [String: Any]:
            guard !fields.isEmpty else { output += "{}"; return }
            let inner = indent.map { $0 + "  " }
            output += "{"
            for (position, key) in fields.keys.sorted().enumerated() {
                if position > 0 { output += "," }
                if let inner { output += "\n" + inner }
                writeString(key, to: &output)
                output += inner == nil ? ":" : ": "
                write(fields[key]!, to: &output, indent: inner)
            }
            if let indent { output += "\n" + indent }
            output += "}"
        default:
            output += "null"
        }
    }

    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                output += String(format: "\\u%04x", scalar.value)
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
