public import YAML

/// One finding about the definitions: severity, message, where, related places and an optional fix.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Comparable {
        case error, warning, note

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs.rank < rhs.rank
        }

        private var rank: Int {
            switch self {
            case .error: 0
            case .warning: 1
            case .note: 2
            }
        }
    }

    /// The text of a diagnostic; checks declare theirs as `static func`s next to themselves.
    public struct Message: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
        public var text: String

        public init(_ text: String) { self.text = text }
        public init(stringLiteral value: String) { self.text = value }

        public var description: String { text }
    }

    /// A related place: "first declared here".
    public struct Note: Sendable, Hashable {
        public var message: Message
        public var location: SourceRange?

        public init(_ message: Message, at location: SourceRange?) {
            self.message = message
            self.location = location
        }
    }

    /// A replacement the author can apply: "did you mean 'topic'?".
    public struct FixIt: Sendable, Hashable {
        public var replacement: String
        public var range: SourceRange

        public init(replacement: String, range: SourceRange) {
            self.replacement = replacement
            self.range = range
        }
    }

    public var severity: Severity
    public var message: Message
    public var location: SourceRange?
    public var notes: [Note]
    public var fixIt: FixIt?

    public init(
        _ severity: Severity, _ message: Message, at location: SourceRange?, notes: [Note] = [], fixIt: FixIt? = nil
    ) {
        self.severity = severity
        self.message = message
        self.location = location
        self.notes = notes
        self.fixIt = fixIt
    }

    /// `file:line:col: error: message`, without the source line.
    public var description: String {
        let place = location.map { "\($0.start): " } ?? ""
        return "\(place)\(severity.rawValue): \(message)"
    }
}

extension Diagnostic {
    /// A YAML error as a diagnostic; libyaml's context becomes a note at its own mark.
    public init(_ error: YAMLError) {
        let notes = error.context.map { [Note(Message($0.message), at: SourceRange(at: $0.mark))] } ?? []
        self.init(.error, Message(error.message), at: SourceRange(at: error.mark), notes: notes)
    }
}

/// Gathers diagnostics from every check; checks never stop at the first problem.
public struct DiagnosticCollector: Sendable {
    public private(set) var diagnostics: [Diagnostic] = []

    public init() {}

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    public mutating func append(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
    }

    public mutating func error(
        _ message: Diagnostic.Message, at location: SourceRange?, notes: [Diagnostic.Note] = [],
        fixIt: Diagnostic.FixIt? = nil
    ) {
        diagnostics.append(Diagnostic(.error, message, at: location, notes: notes, fixIt: fixIt))
    }

    public mutating func warning(
        _ message: Diagnostic.Message, at location: SourceRange?, notes: [Diagnostic.Note] = [],
        fixIt: Diagnostic.FixIt? = nil
    ) {
        diagnostics.append(Diagnostic(.warning, message, at: location, notes: notes, fixIt: fixIt))
    }

    /// An "unknown X 'y'" error with "did you mean 'z'?" when a known name is close.
    public mutating func unknown(
        _ what: String, _ name: String, at location: SourceRange?, known: some Sequence<String>
    ) {
        missing("unknown \(what) '\(name)'", name, at: location, known: known)
    }

    /// `message`, then "; did you mean 'z'?" when a known name is close to `name`.
    public mutating func missing(
        _ message: Diagnostic.Message, _ name: String, at location: SourceRange?, known: some Sequence<String>
    ) {
        if let suggestion = EditDistance.closest(to: name, in: known) {
            error(
                "\(message.text); did you mean '\(suggestion)'?", at: location,
                fixIt: location.map { Diagnostic.FixIt(replacement: suggestion, range: $0) })
        } else {
            error(message, at: location)
        }
    }

    /// Diagnostics in file order, errors before warnings at the same place; exact repeats dropped.
    public var sorted: [Diagnostic] {
        func before(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
            let l = lhs.location?.start, r = rhs.location?.start
            switch (l, r) {
            case let (l?, r?) where l != r: return l < r
            case (nil, _?): return false
            case (_?, nil): return true
            default: return lhs.severity < rhs.severity
            }
        }
        // Positions sorted (stable), then repeats dropped: an exact repeat has the same place and
        // severity, so it is in the same run of equals, after the first. Thousands of warnings
        // (a large definition set) need no hashing of every diagnostic this way.
        let order = diagnostics.indices.sorted { before(diagnostics[$0], diagnostics[$1]) }
        var result: [Diagnostic] = []
        result.reserveCapacity(order.count)
        var runStart = 0
        for position in order {
            let diagnostic = diagnostics[position]
            if let first = result.indices.last.map({ _ in result[runStart] }), !before(first, diagnostic) {
                if result[runStart...].contains(diagnostic) { continue }
            } else {
                runStart = result.count
            }
            result.append(diagnostic)
        }
        return result
    }
}
