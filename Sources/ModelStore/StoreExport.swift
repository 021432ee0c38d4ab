public import IntentModel

/// Every record of a store by entity, as `intents store export` writes it and `store import`
/// reads it: `{"App.Entity": [{"id": …, "createdAt": …, "updatedAt": …, "property": value}]}`.
/// Each record is a JSON object because its properties are the definitions'.
public struct StoreExport: Sendable, Hashable, Codable {
    /// Records by entity (`App.Entity`, or an entity's name when importing).
    public var records: [String: [[String: JSONValue]]]

    public init(records: [String: [[String: JSONValue]]]) {
        self.records = records
    }

    /// An export from JSON: an object of lists of objects. A wrong shape is named by its place
    /// (`'App.Entity' must be a list of records`, `App.Entity[2] must be an object`).
    public init(json: JSONValue) throws(StoreError) {
        guard case .object(let entities) = json else {
            throw .invalidData("an export is a JSON object of the form {\"App.Entity\": [records]}")
        }
        var records: [String: [[String: JSONValue]]] = [:]
        for (key, value) in entities {
            guard case .array(let items) = value else { throw .invalidData("'\(key)' must be a list of records") }
            records[key] = try items.enumerated().map { (index, item) throws(StoreError) in
                guard case .object(let fields) = item else { throw .invalidData("\(key)[\(index)] must be an object") }
                return fields
            }
        }
        self.records = records
    }

    public init(from decoder: any Decoder) throws {
        let json = try decoder.singleValueContainer().decode(JSONValue.self)
        do {
            try self.init(json: json)
        } catch {
            let context = DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description)
            throw DecodingError.dataCorrupted(context)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(records)
    }
}
