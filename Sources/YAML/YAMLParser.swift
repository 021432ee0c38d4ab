internal import CYAML

/// A parsed YAML file: its root node (nil for an empty file) and the problems that did not stop reading.
public struct YAMLDocument: Sendable {
    public var root: Node?
    /// Duplicate mapping keys: libyaml accepts them, we report them.
    public var duplicateKeys: [YAMLError]

    public init(root: Node?, duplicateKeys: [YAMLError] = []) {
        self.root = root
        self.duplicateKeys = duplicateKeys
    }
}

/// Reads YAML through libyaml's document API into `Node` trees with source marks.
public enum YAMLParser {
    /// Deepest nesting accepted; deeper input is refused rather than risking the stack.
    public static let maximumDepth = 200
    /// Most nodes one file may expand to (aliases count each time they are used).
    public static let maximumNodes = 1_000_000
    /// Largest file read: definitions are text a person writes, not data dumps.
    public static let maximumBytes = 4 << 20

    /// Parses one YAML document. Throws on a syntax error, on a second document, on recursive
    /// aliases and on input nested or expanded past the limits.
    public static func parse(_ text: String, file: String) throws(YAMLError) -> YAMLDocument {
        try parse(bytes: Array(text.utf8), file: file)
    }

    /// Parses bytes (UTF-8, UTF-16 with a BOM, a UTF-8 BOM accepted) as one YAML document.
    public static func parse(bytes: [UInt8], file: String) throws(YAMLError) -> YAMLDocument {
        let loader = LibYAMLLoader(bytes: bytes, file: file)
        return try loader.load()
    }
}

extension YAMLParser {
    /// libyaml's own parse of one document, building no `Node`s: what benchmarks compare against.
    package static func libyamlOnly(bytes: [UInt8]) -> Bool {
        var parser = yaml_parser_t()
        var document = yaml_document_t()
        yaml_parser_initialize(&parser)
        defer { yaml_parser_delete(&parser) }
        return bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            guard yaml_parser_load(&parser, &document) != 0 else { return false }
            yaml_document_delete(&document)
            return true
        }
    }
}

/// Owns libyaml's parser and the document it loads; frees both in `deinit`.
final class LibYAMLLoader {
    private var parser = yaml_parser_t()
    private var document = yaml_document_t()
    private var hasDocument = false
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private let file: String
    private var nodeCount = 0
    /// Collections being built, by node index: an alias back into one of them is a cycle.
    private var inProgress: [Bool] = []
    private var duplicateKeys: [YAMLError] = []

    init(bytes: [UInt8], file: String) {
        self.file = file
        self.bytes = .allocate(capacity: max(bytes.count, 1))
        _ = self.bytes.initialize(from: bytes)
        yaml_parser_initialize(&parser)
        yaml_parser_set_input_string(&parser, self.bytes.baseAddress, bytes.count)
    }

    deinit {
        if hasDocument { yaml_document_delete(&document) }
        yaml_parser_delete(&parser)
        bytes.deallocate()
    }

    func load() throws(YAMLError) -> YAMLDocument {
        guard bytes.count <= YAMLParser.maximumBytes else {
            throw YAMLError(
                message:
                    "the file is \(bytes.count) bytes; a definition file is at most \(YAMLParser.maximumBytes >> 20) MB",
                mark: Mark(file: file, line: 1, column: 1))
        }
        try checkDepth()
        try loadDocument()
        guard let rootPointer = yaml_document_get_root_node(&document) else {
            return YAMLDocument(root: nil)
        }
        let rootIndex = Int32(rootPointer - document.nodes.start) + 1
        inProgress = [Bool](repeating: false, count: (document.nodes.top - document.nodes.start) + 2)
        let root = try node(at: rootIndex, depth: 0)
        let firstEnd = mark(document.end_mark)
        yaml_document_delete(&document)
        hasDocument = false

        try loadDocument()
        if yaml_document_get_root_node(&document) != nil {
            throw YAMLError(
                message: "a definition file holds one YAML document; found a second one here",
                mark: mark(document.start_mark),
                context: ("the first document ends here", firstEnd))
        }
        return YAMLDocument(root: root, duplicateKeys: duplicateKeys)
    }

    /// Reads the events once, before libyaml builds its document, and stops at the first
    /// collection nested deeper than `maximumDepth`: libyaml's loader takes time quadratic in the
    /// depth (40,000 levels took 14 s), so the limit must hold while reading, not after. A syntax
    /// error ends this pass quietly; loading reports it with its context.
    private func checkDepth() throws(YAMLError) {
        var events = yaml_parser_t()
        yaml_parser_initialize(&events)
        defer { yaml_parser_delete(&events) }
        yaml_parser_set_input_string(&events, bytes.baseAddress, bytes.count)
        var depth = 0
        var event = yaml_event_t()
        while yaml_parser_parse(&events, &event) != 0 {
            defer { yaml_event_delete(&event) }
            switch event.type {
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                depth += 1
                if depth > YAMLParser.maximumDepth {
                    throw YAMLError(
                        message: "nesting deeper than \(YAMLParser.maximumDepth) levels", mark: mark(event.start_mark))
                }
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                depth -= 1
            case YAML_STREAM_END_EVENT:
                return
            default:
                break
            }
        }
    }

    private func loadDocument() throws(YAMLError) {
        guard yaml_parser_load(&parser, &document) != 0 else {
            throw parserError()
        }
        hasDocument = true
    }

    private func parserError() -> YAMLError {
        let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
        var message = problem
        if parser.problem_value != -1 && parser.error == YAML_READER_ERROR {
            message += " (byte 0x\(String(parser.problem_value, radix: 16)))"
        }
        let problemMark: Mark
        if parser.error == YAML_READER_ERROR {
            problemMark = position(ofByte: parser.problem_offset)
        } else {
            problemMark = mark(parser.problem_mark)
        }
        var context: (String, Mark)?
        if let text = parser.context {
            context = (String(cString: text), mark(parser.context_mark))
        }
        return YAMLError(message: message, mark: problemMark, context: context)
    }

    /// The line and column of a byte offset, for reader errors which carry only an offset.
    private func position(ofByte offset: Int) -> Mark {
        var line = 1
        var column = 1
        for byte in bytes.prefix(min(offset, bytes.count)) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return Mark(file: file, line: line, column: column)
    }

    private func mark(_ raw: yaml_mark_t) -> Mark {
        Mark(file: file, line: Int(raw.line) + 1, column: Int(raw.column) + 1)
    }

    private func node(at index: Int32, depth: Int) throws(YAMLError) -> Node {
        guard let raw = yaml_document_get_node(&document, index)?.pointee else {
            throw YAMLError(message: "internal: missing YAML node \(index)", mark: Mark(file: file, line: 1, column: 1))
        }
        let range = SourceRange(start: mark(raw.start_mark), end: mark(raw.end_mark))
        nodeCount += 1
        if nodeCount > YAMLParser.maximumNodes {
            throw YAMLError(
                message:
                    "the file expands to more than \(YAMLParser.maximumNodes) nodes (aliases repeat what they name)",
                mark: range.start)
        }
        if depth > YAMLParser.maximumDepth {
            throw YAMLError(message: "nesting deeper than \(YAMLParser.maximumDepth) levels", mark: range.start)
        }
        let tag = raw.tag.flatMap(Self.explicitTag)

        switch raw.type {
        case YAML_SCALAR_NODE:
            let value = String(
                decoding: UnsafeBufferPointer(start: raw.data.scalar.value, count: raw.data.scalar.length),
                as: UTF8.self)
            return Node(
                kind: .scalar(Scalar(value: value, style: Self.style(raw.data.scalar.style))), tag: tag, range: range)

        case YAML_SEQUENCE_NODE:
            try enter(index, at: range)
            defer { inProgress[Int(index)] = false }
            var items: [Node] = []
            var item = raw.data.sequence.items.start
            while let current = item, current < raw.data.sequence.items.top {
                items.append(try node(at: current.pointee, depth: depth + 1))
                item = current + 1
            }
            return Node(kind: .sequence(items), tag: tag, range: range)

        case YAML_MAPPING_NODE:
            try enter(index, at: range)
            defer { inProgress[Int(index)] = false }
            var pairs: [Node.Pair] = []
            var largeIndex: [String: Mark]?
            var pair = raw.data.mapping.pairs.start
            while let current = pair, current < raw.data.mapping.pairs.top {
                let key = try node(at: current.pointee.key, depth: depth + 1)
                let value = try node(at: current.pointee.value, depth: depth + 1)
                if let text = key.scalar?.value {
                    // Most mappings are small: a linear scan beats hashing every key; large ones get an index.
                    let first: Mark?
                    if pairs.count < 16 {
                        first = pairs.first { $0.key.scalar?.value == text }?.key.mark
                    } else {
                        if largeIndex == nil {
                            largeIndex = [:]
                            for pair in pairs {
                                if let k = pair.key.scalar?.value, largeIndex?[k] == nil {
                                    largeIndex?[k] = pair.key.mark
                                }
                            }
                        }
                        first = largeIndex?[text]
                        if first == nil { largeIndex?[text] = key.mark }
                    }
                    if let first {
                        duplicateKeys.append(
                            YAMLError(
                                message: "duplicate key '\(text)'",
                                mark: key.mark,
                                context: ("'\(text)' is first given here", first)))
                    }
                }
                pairs.append(Node.Pair(key: key, value: value))
                pair = current + 1
            }
            return Node(kind: .mapping(pairs), tag: tag, range: range)

        default:
            return Node(kind: .scalar(Scalar(value: "")), range: range)
        }
    }

    private func enter(_ index: Int32, at range: SourceRange) throws(YAMLError) {
        guard Int(index) < inProgress.count, !inProgress[Int(index)] else {
            throw YAMLError(message: "an alias refers to a node that contains it", mark: range.start)
        }
        inProgress[Int(index)] = true
    }

    /// Tags libyaml fills in by itself are not worth keeping; only explicit ones are.
    private static func explicitTag(_ tag: UnsafeMutablePointer<yaml_char_t>) -> String? {
        let text = UnsafeRawPointer(tag).assumingMemoryBound(to: CChar.self)
        for implicit in [YAML_STR_TAG, YAML_SEQ_TAG, YAML_MAP_TAG] where strcmp(text, implicit) == 0 {
            return nil
        }
        return String(cString: text)
    }

    private static func style(_ style: yaml_scalar_style_t) -> Scalar.Style {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: return .literal
        case YAML_FOLDED_SCALAR_STYLE: return .folded
        default: return .plain
        }
    }
}
