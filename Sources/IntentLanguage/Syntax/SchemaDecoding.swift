import IntentModel
import YAML

extension Diagnostic.Message {
    static func expected(_ what: String, in context: String) -> Self { "expected \(what) for \(context)" }
    static func expectedMapping(_ context: String) -> Self { "expected a mapping for \(context)" }
    static func missingKey(_ key: String, in context: String) -> Self { "missing '\(key)' in \(context)" }
    static let plainKeys: Self = "keys must be plain names"
    static let plainNames: Self = "names must be plain scalars"
}

/// Walking YAML nodes against `DefinitionSchema`: the helpers the definition and shortcut decoders
/// share, so both report an unknown key at the key (with "did you mean") and a missing one at its mapping.
protocol SchemaDecoding {
    var diagnostics: DiagnosticCollector { get set }
}

extension SchemaDecoding {
    /// A mapping's values by key, after reporting keys the schema does not know and required keys
    /// that are missing. `misplaced` may give a better message than "unknown key" for a key.
    mutating func fields(
        _ node: Node, _ object: DefinitionSchema.Object, context: String,
        misplaced: (String) -> Diagnostic.Message? = { _ in nil }
    ) -> SchemaFields? {
        guard let pairs = node.mapping else {
            diagnostics.error(.expectedMapping(context), at: node.range)
            return nil
        }
        let (known, required) = DefinitionSchema.knownAndRequiredKeys(of: object)
        var result = SchemaFields(pairs: pairs)
        result.entries.reserveCapacity(pairs.count)
        // By index: a `for pair in pairs` copied each pair, retaining both nodes' text and file name.
        for index in pairs.indices {
            // `string` is nil for anything but a scalar.
            guard let key = pairs[index].key.string else {
                diagnostics.error(.plainKeys, at: pairs[index].key.range)
                continue
            }
            if known.contains(where: { SchemaFields.same($0, key) }) {
                if !result.contains(key) { result.entries.append((key, index)) }
            } else if let message = misplaced(key) {
                diagnostics.error(message, at: pairs[index].key.range)
            } else {
                diagnostics.unknown("key", key, at: pairs[index].key.range, known: known)
            }
        }
        for key in required where !result.contains(key) {
            diagnostics.error(.missingKey(key, in: context), at: node.range)
        }
        return result
    }

    mutating func string(_ node: Node, _ context: String) -> Located<String>? {
        guard let scalar = node.scalar, !node.isNull else {
            diagnostics.error(.expected("a string", in: context), at: node.range)
            return nil
        }
        return Located(scalar.value, at: node.range)
    }

    mutating func strings(_ node: Node, _ context: String) -> [Located<String>] {
        if node.scalar != nil, !node.isNull {
            return string(node, context).map { [$0] } ?? []
        }
        return list(node, context) { decoder, item in decoder.string(item, context) }
    }

    mutating func bool(_ node: Node, _ context: String) -> Bool? {
        guard let value = node.bool else {
            diagnostics.error(.expected("true or false", in: context), at: node.range)
            return nil
        }
        return value
    }

    mutating func integer(_ node: Node, _ context: String) -> Located<Int>? {
        guard let value = node.int else {
            diagnostics.error(.expected("a whole number", in: context), at: node.range)
            return nil
        }
        return Located(value, at: node.range)
    }

    mutating func list<T>(_ node: Node?, _ context: String, _ item: (inout Self, Node) -> T?) -> [T] {
        guard let node, !node.isNull else { return [] }
        guard let items = node.sequence else {
            diagnostics.error(.expected("a list", in: context), at: node.range)
            return []
        }
        return items.compactMap { item(&self, $0) }
    }

    mutating func named<T>(_ node: Node?, _ context: String, _ item: (inout Self, Located<String>, Node) -> T?) -> [T] {
        pairs(node, context).compactMap { item(&self, $0.0, $0.1) }
    }

    mutating func pairs(_ node: Node?, _ context: String) -> [(Located<String>, Node)] {
        guard let node, !node.isNull else { return [] }
        guard let pairs = node.mapping else {
            diagnostics.error(.expectedMapping(context), at: node.range)
            return []
        }
        var result: [(Located<String>, Node)] = []
        result.reserveCapacity(pairs.count)
        for index in pairs.indices {
            guard let key = pairs[index].key.string else {
                diagnostics.error(.plainNames, at: pairs[index].key.range)
                continue
            }
            result.append((Located(key, at: pairs[index].key.range), pairs[index].value))
        }
        return result
    }
}

/// A mapping's known keys and their values, the first of each key in the order written. A mapping
/// holds a handful of keys: looking one up is a scan that compares lengths before bytes, cheaper than
/// a dictionary, which hashed every key going in and every key asked for (a tenth of a compile).
/// The values stay in the mapping's pairs (one array, shared) until asked for: copied in, each
/// value was a copy and a destruction of its node more per key.
struct SchemaFields: Sequence {
    var pairs: [Node.Pair]
    /// Each known key with its pair's index in `pairs`.
    var entries: [(key: String, index: Int)] = []

    init(pairs: [Node.Pair] = []) {
        self.pairs = pairs
    }

    subscript(key: String) -> Node? {
        for entry in entries where Self.same(entry.key, key) { return pairs[entry.index].value }
        return nil
    }

    func contains(_ key: String) -> Bool {
        entries.contains { Self.same($0.key, key) }
    }

    struct Iterator: IteratorProtocol {
        let fields: SchemaFields
        var position = 0

        mutating func next() -> (key: String, value: Node)? {
            guard position < fields.entries.count else { return nil }
            let entry = fields.entries[position]
            position += 1
            return (entry.key, fields.pairs[entry.index].value)
        }
    }

    func makeIterator() -> Iterator { Iterator(fields: self) }

    /// Equal strings, the lengths compared first (they are at hand for short strings).
    @inline(__always)
    static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a == b
    }
}
