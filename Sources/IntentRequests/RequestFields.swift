import Foundation
public import IntentModel

/// A request body taken apart by hand, so that every mistake gets its own message: not JSON, not an
/// object, a field that is not known (with the closest known one), a field of the wrong type.
public struct RequestFields: Sendable {
    public let fields: [String: JSONValue]

    /// Parses `bytes` as one JSON object whose keys are all in `allowed`. An empty body is `{}`.
    public init(bytes: [UInt8], allowed: [String]) throws(APIError) {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            fields = [:]
            return
        }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            throw .badRequest("the body is not valid JSON\(Self.position(of: error))")
        }
        guard case .object(let object) = value else {
            throw .badRequest("the body must be a JSON object, not \(Self.kind(of: value))")
        }
        for key in object.keys.sorted() where !allowed.contains(key) {
            var message = "unknown field '\(key)'"
            if let close = EditDistance.closest(to: key, in: allowed) { message += "; did you mean '\(close)'?" }
            message += " (fields: \(allowed.joined(separator: ", ")))"
            throw .badRequest(message)
        }
        fields = object
    }

    /// An object inside a body (`items[0]`), its keys checked like a body's.
    public init(trusted object: [String: JSONValue], allowed: [String], at path: String) throws(APIError) {
        for key in object.keys.sorted() where !allowed.contains(key) {
            throw .badRequest("\(path): unknown field '\(key)' (fields: \(allowed.joined(separator: ", ")))")
        }
        fields = object
    }

    /// A string field; `required` refuses its absence (or null).
    public func string(_ key: String, required: Bool = false) throws(APIError) -> String? {
        switch fields[key] {
        case .string(let text)?: return text
        case nil, .null?:
            if required { throw .badRequest("the field '\(key)' is required (a string)") }
            return nil
        case let other?: throw .badRequest("the field '\(key)' must be a string, not \(Self.kind(of: other))")
        }
    }

    public func bool(_ key: String) throws(APIError) -> Bool? {
        switch fields[key] {
        case .bool(let flag)?: return flag
        case nil, .null?: return nil
        case let other?: throw .badRequest("the field '\(key)' must be true or false, not \(Self.kind(of: other))")
        }
    }

    /// A whole number in `range`.
    public func integer(_ key: String, in range: ClosedRange<Int>) throws(APIError) -> Int? {
        let number: Int
        switch fields[key] {
        case .integer(let whole)?: number = whole
        case .number(let value)? where value == value.rounded() && abs(value) < 1e15: number = Int(value)
        case nil, .null?: return nil
        case let other?: throw .badRequest("the field '\(key)' must be a whole number, not \(Self.kind(of: other))")
        }
        guard range.contains(number) else {
            throw .badRequest(
                "the field '\(key)' must be from \(range.lowerBound) to \(range.upperBound), not \(number)")
        }
        return number
    }

    /// An object of strings (`context: {area: Kitchen}`).
    public func strings(_ key: String) throws(APIError) -> [String: String]? {
        switch fields[key] {
        case .object(let object)?:
            var result: [String: String] = [:]
            for (name, value) in object {
                guard case .string(let text) = value else {
                    throw .badRequest("the field '\(key).\(name)' must be a string, not \(Self.kind(of: value))")
                }
                result[name] = text
            }
            return result
        case nil, .null?: return nil
        case let other?:
            throw .badRequest("the field '\(key)' must be an object of strings, not \(Self.kind(of: other))")
        }
    }

    /// An array of objects (`items: [{text: …}]`).
    public func objects(_ key: String, required: Bool = false) throws(APIError) -> [[String: JSONValue]]? {
        switch fields[key] {
        case .array(let items)?:
            return try items.enumerated().map { (index, item) throws(APIError) in
                guard case .object(let object) = item else {
                    throw .badRequest("the field '\(key)[\(index)]' must be an object, not \(Self.kind(of: item))")
                }
                return object
            }
        case nil, .null?:
            if required { throw .badRequest("the field '\(key)' is required (an array)") }
            return nil
        case let other?: throw .badRequest("the field '\(key)' must be an array, not \(Self.kind(of: other))")
        }
    }

    static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Foundation's own words for where the JSON broke, when it says.
    private static func position(of error: any Error) -> String {
        guard case DecodingError.dataCorrupted(let context) = error else { return "" }
        let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
        guard let detail = underlying ?? (context.debugDescription.isEmpty ? nil : context.debugDescription) else {
            return ""
        }
        return ": " + detail
    }
}
