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

/// Reads YAML through libyaml's events into `Node` trees with source marks.
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

/// Owns libyaml's parser; frees it in `deinit`. Builds `Node`s from libyaml's events in one pass:
/// the depth and size limits hold while reading (libyaml's own document loader takes time quadratic
/// in the depth, 14 s for 40,000 levels, and reading the events once to check first cost a second
/// parse of every file).
final class LibYAMLLoader {
    /// Held by pointer: a stored property passed `inout` to every `yaml_parser_parse` was checked for
    /// exclusive access each time.
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private let file: String
    private var nodeCount = 0
    private var duplicateKeys: [YAMLError] = []

    /// A collection being read: its items (or pairs, with a key waiting for its value).
    private struct Open {
        var isMapping: Bool
        var tag: String?
        var start: Mark
        var anchor: String?
        var items: [Node] = []
        var pairs: [Node.Pair] = []
        var key: Node?
        /// Keys of a mapping past 16 pairs, for finding duplicates without a scan.
        var largeIndex: [String: Mark]?
        /// Nodes in it (aliases counted for what they repeat) and its height, for aliases to it.
        var size = 1
        var height = 0
    }

    /// An anchored node: being read (an alias to it is a cycle), or read with its size and height.
    private struct Anchored {
        var start: Mark
        var node: Node?
        var size = 1
        var height = 0
    }

    init(bytes: [UInt8], file: String) {
        self.file = file
        self.bytes = .allocate(capacity: max(bytes.count, 1))
        _ = self.bytes.initialize(from: bytes)
        parser = .allocate(capacity: 1)
        parser.initialize(to: yaml_parser_t())
        yaml_parser_initialize(parser)
        yaml_parser_set_input_string(parser, self.bytes.baseAddress, bytes.count)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
        bytes.deallocate()
    }

    func load() throws(YAMLError) -> YAMLDocument {
        guard bytes.count <= YAMLParser.maximumBytes else {
            throw YAMLError(
                message:
                    "the file is \(bytes.count) bytes; a definition file is at most \(YAMLParser.maximumBytes >> 20) MB",
                mark: Mark(file: file, line: 1, column: 1))
        }
        var stack: [Open] = []
        var anchors: [String: Anchored] = [:]
        var root: Node?
        var documents = 0
        var firstEnd: Mark?
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(parser, &event) != 0 else { throw parserError() }
            defer { yaml_event_delete(&event) }
            let start = mark(event.start_mark)
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return YAMLDocument(root: root, duplicateKeys: duplicateKeys)
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    throw YAMLError(
                        message: "a definition file holds one YAML document; found a second one here", mark: start,
                        context: firstEnd.map { ("the first document ends here", $0) })
                }
            case YAML_DOCUMENT_END_EVENT:
                firstEnd = mark(event.end_mark)
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                // Copied into a string made to size: a short ASCII scalar (nearly every key and
                // value) becomes a small string without the separate validating pass
                // `String(decoding:)` makes; other text is validated (and repaired) as before.
                let value = String(unsafeUninitializedCapacity: scalar.length) { buffer in
                    UnsafeMutableRawBufferPointer(buffer).copyMemory(
                        from: UnsafeRawBufferPointer(start: scalar.value, count: scalar.length))
                    return scalar.length
                }
                let node = Node(
                    kind: .scalar(Scalar(value: value, style: Self.style(scalar.style))), tag: Self.tag(scalar.tag),
                    range: SourceRange(start: start, end: mark(event.end_mark)))
                try count(1, at: start)
                if scalar.anchor != nil { try register(scalar.anchor, start: start, in: &anchors, node: node) }
                attach(consume node, size: 1, height: 0, to: &stack, root: &root)
            case YAML_ALIAS_EVENT:
                let name = String(
                    cString: UnsafeRawPointer(event.data.alias.anchor).assumingMemoryBound(to: CChar.self))
                guard let anchored = anchors[name] else {
                    throw YAMLError(message: "found undefined alias", mark: start)
                }
                guard let node = anchored.node else {
                    throw YAMLError(message: "an alias refers to a node that contains it", mark: anchored.start)
                }
                try count(anchored.size, at: start)
                // What the alias repeats sits as deep as the alias: its depth counts from here.
                if stack.count + anchored.height > YAMLParser.maximumDepth {
                    throw YAMLError(message: "nesting deeper than \(YAMLParser.maximumDepth) levels", mark: start)
                }
                attach(node, size: anchored.size, height: anchored.height, to: &stack, root: &root)
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                let isMapping = event.type == YAML_MAPPING_START_EVENT
                if stack.count + 1 > YAMLParser.maximumDepth {
                    throw YAMLError(message: "nesting deeper than \(YAMLParser.maximumDepth) levels", mark: start)
                }
                try count(1, at: start)
                let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
                let tag = isMapping ? event.data.mapping_start.tag : event.data.sequence_start.tag
                try register(anchor, start: start, in: &anchors, node: nil)
                var open = Open(
                    isMapping: isMapping, tag: Self.tag(tag), start: start,
                    anchor: anchor.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) })
                // Room for a few children at once: growing one at a time reallocated a small
                // collection two or three times.
                if isMapping { open.pairs.reserveCapacity(4) } else { open.items.reserveCapacity(4) }
                stack.append(consume open)
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                let open = stack.removeLast()
                let range = SourceRange(start: open.start, end: mark(event.end_mark))
                let node =
                    open.isMapping
                    ? Node(kind: .mapping(open.pairs), tag: open.tag, range: range)
                    : Node(kind: .sequence(open.items), tag: open.tag, range: range)
                if let anchor = open.anchor {
                    anchors[anchor] = Anchored(start: open.start, node: node, size: open.size, height: open.height)
                }
                attach(consume node, size: open.size, height: open.height, to: &stack, root: &root)
            default:
                break
            }
        }
    }

    /// A node read whole (a scalar, an alias or a collection just closed) goes into its parent, or is
    /// the root. Moved, not copied: a copy of a node retains its text, its children and its file's
    /// name twice, and the tree is built of them.
    private func attach(_ node: consuming Node, size: Int, height: Int, to stack: inout [Open], root: inout Node?) {
        guard !stack.isEmpty else {
            root = node
            return
        }
        let last = stack.count - 1
        stack[last].size += size
        stack[last].height = max(stack[last].height, height + 1)
        if !stack[last].isMapping {
            stack[last].items.append(consume node)
            return
        }
        // The waiting key is taken out, not bound from the optional: a binding copied it.
        if let key = stack[last].key.take() {
            noteDuplicate(key, in: &stack[last])
            stack[last].pairs.append(Node.Pair(key: consume key, value: consume node))
        } else {
            stack[last].key = consume node
        }
    }

    /// One more node read (or `size` more, repeated by an alias): past the limit, an error here.
    private func count(_ size: Int, at start: Mark) throws(YAMLError) {
        nodeCount += size
        if nodeCount > YAMLParser.maximumNodes {
            throw YAMLError(
                message:
                    "the file expands to more than \(YAMLParser.maximumNodes) nodes (aliases repeat what they name)",
                mark: start)
        }
    }

    /// Notes a node's anchor (a collection's as it opens, so an alias inside it is found a cycle);
    /// an anchor given twice is an error at the second, as libyaml's loader says it.
    private func register(
        _ anchor: UnsafeMutablePointer<yaml_char_t>?, start: Mark, in anchors: inout [String: Anchored], node: Node?
    ) throws(YAMLError) {
        guard let anchor else { return }
        let name = String(cString: UnsafeRawPointer(anchor).assumingMemoryBound(to: CChar.self))
        if let first = anchors[name] {
            throw YAMLError(
                message: "second occurrence", mark: start,
                context: ("found duplicate anchor; first occurrence", first.start))
        }
        anchors[name] = Anchored(start: start, node: node)
    }

    /// A key given twice in one mapping: libyaml accepts it, we report it.
    private func noteDuplicate(_ key: Node, in open: inout Open) {
        guard case .scalar(let scalar) = key.kind else { return }
        let text = scalar.value
        // Most mappings are small: a linear scan beats hashing every key; large ones get an index.
        let first: Mark?
        if open.pairs.count < 16 {
            // By index, lengths first: `first(where:)` copied every pair it passed (both nodes, their
            // text and file name retained and released), and most keys differ in length.
            let count = text.utf8.count
            var found: Int?
            for index in open.pairs.indices {
                guard case .scalar(let other) = open.pairs[index].key.kind, other.value.utf8.count == count,
                    other.value == text
                else { continue }
                found = index
                break
            }
            first = found.map { open.pairs[$0].key.mark }
        } else {
            if open.largeIndex == nil {
                var index: [String: Mark] = [:]
                for pair in open.pairs {
                    if let k = pair.key.scalar?.value, index[k] == nil { index[k] = pair.key.mark }
                }
                open.largeIndex = index
            }
            first = open.largeIndex?[text]
            if first == nil { open.largeIndex?[text] = key.mark }
        }
        if let first {
            duplicateKeys.append(
                YAMLError(
                    message: "duplicate key '\(text)'", mark: key.mark,
                    context: ("'\(text)' is first given here", first)))
        }
    }

    private func parserError() -> YAMLError {
        let problem = parser.pointee.problem.map { String(cString: $0) } ?? "invalid YAML"
        var message = problem
        if parser.pointee.problem_value != -1 && parser.pointee.error == YAML_READER_ERROR {
            message += " (byte 0x\(String(parser.pointee.problem_value, radix: 16)))"
        }
        let problemMark: Mark
        if parser.pointee.error == YAML_READER_ERROR {
            problemMark = position(ofByte: parser.pointee.problem_offset)
        } else {
            problemMark = mark(parser.pointee.problem_mark)
        }
        var context: (String, Mark)?
        if let text = parser.pointee.context {
            context = (String(cString: text), mark(parser.pointee.context_mark))
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

    /// An explicit tag; none, "!" (the non-specific tag) and the defaults libyaml's loader would
    /// fill in are not worth keeping.
    private static func tag(_ tag: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let tag, !(tag[0] == UInt8(ascii: "!") && tag[1] == 0) else { return nil }
        return explicitTag(tag)
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
