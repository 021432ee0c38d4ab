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

/// The span a node covers: start inclusive, end exclusive.
public struct SourceRange: Sendable, Hashable, CustomStringConvertible {
    public var start: Mark
    public var end: Mark

    public init(start: Mark, end: Mark) {
        self.start = start
        self.end = end
    }

    /// A range that covers one position.
    public init(at mark: Mark) {
        self.init(start: mark, end: mark)
    }

    public var description: String { start.description }
}
