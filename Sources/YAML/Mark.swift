/// A position in a source file: 1-based line and column (columns count characters).
public struct Mark: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file's path as the user named it.
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, in Unicode scalars.
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public static func < (lhs: Mark, rhs: Mark) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }

    /// `file:line:col`.
    public var description: String { "\(file):\(line):\(column)" }

    /// The mark `count` columns further on the same line.
    public func advanced(by count: Int) -> Mark {
        Mark(file: file, line: line, column: column + count)
    }
}

/// The span a node covers: start inclusive, end exclusive, in one file.
///
/// The file's name is held once, not in each end: every node, located value and diagnostic carries a
/// range, and each copy retained the name twice.
public struct SourceRange: Sendable, Hashable, CustomStringConvertible {
    private var file: String
    private var startLine: Int
    private var startColumn: Int
    private var endLine: Int
    private var endColumn: Int

    public var start: Mark {
        get { Mark(file: file, line: startLine, column: startColumn) }
        set {
            file = newValue.file
            startLine = newValue.line
            startColumn = newValue.column
        }
    }

    /// In the start's file.
    public var end: Mark {
        get { Mark(file: file, line: endLine, column: endColumn) }
        set {
            endLine = newValue.line
            endColumn = newValue.column
        }
    }

    /// `end` is taken in `start`'s file.
    public init(start: Mark, end: Mark) {
        file = start.file
        startLine = start.line
        startColumn = start.column
        endLine = end.line
        endColumn = end.column
    }

    /// A range that covers one position.
    public init(at mark: Mark) {
        self.init(start: mark, end: mark)
    }

    public var description: String { start.description }
}
