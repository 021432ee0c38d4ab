/// A parsed expression with the span of source it came from (offsets in characters).
public struct Expression: Sendable, Hashable {
    public indirect enum Kind: Sendable, Hashable {
        case literal(Value)
        case null
        /// A parameter, variable, property, constant or (once checked) an enum case.
        case name(String)
        /// `.urgent`: an enum case whose type comes from the other side of a comparison.
        case implicitCase(String)
        case enumCase(QualifiedName, String)
        case member(Expression, String)
        case unary(UnaryOperator, Expression)
        case binary(BinaryOperator, Expression, Expression)
        case conditional(Expression, Expression, Expression)
        case call(String, [Expression])
        /// `Task where !isCompleted`, inside `count(…)`, `exists(…)`, `first(…)`.
        case query(entity: String, filter: Expression?)
        case list([Expression])
    }

    public enum UnaryOperator: String, Sendable, Hashable {
        case not = "!"
        case negate = "-"
    }

    public enum BinaryOperator: String, Sendable, Hashable {
        case or = "||"
        case and = "&&"
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case contains = "in"
        case add = "+"
        case subtract = "-"
        case multiply = "*"
        case divide = "/"
        case remainder = "%"
        case coalesce = "??"
    }

    public var kind: Kind
    /// Character offsets into the source text.
    public var span: Range<Int>

    public init(_ kind: Kind, span: Range<Int>) {
        self.kind = kind
        self.span = span
    }

    public static func == (lhs: Expression, rhs: Expression) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    /// Whether it queries the store somewhere (`Task where …`).
    public var containsQuery: Bool {
        switch kind {
        case .query: true
        case .literal, .null, .name, .implicitCase, .enumCase: false
        case .member(let base, _), .unary(_, let base): base.containsQuery
        case .binary(_, let a, let b): a.containsQuery || b.containsQuery
        case .conditional(let a, let b, let c): a.containsQuery || b.containsQuery || c.containsQuery
        case .call(_, let arguments), .list(let arguments): arguments.contains { $0.containsQuery }
        }
    }

    /// Every name this expression reads, in order (for "is this parameter used?").
    public var names: [String] {
        var found: [String] = []
        forEachName { found.append($0) }
        return found
    }

    /// Calls `body` with every name this expression reads, in order, building no array on the way
    /// (the compiler asks of every expression it checks).
    public func forEachName(_ body: (String) -> Void) {
        switch kind {
        case .name(let name): body(name)
        case .literal, .null, .implicitCase, .enumCase: break
        case .member(let base, _), .unary(_, let base): base.forEachName(body)
        case .binary(_, let a, let b):
            a.forEachName(body)
            b.forEachName(body)
        case .conditional(let a, let b, let c):
            a.forEachName(body)
            b.forEachName(body)
            c.forEachName(body)
        case .call(_, let arguments), .list(let arguments): for argument in arguments { argument.forEachName(body) }
        case .query(_, let filter): filter?.forEachName(body)
        }
    }
}

/// Text with `${expression}` holes: dialogs, summaries, display templates, set values.
public struct Template: Sendable, Hashable {
    public enum Part: Sendable, Hashable {
        case text(String)
        case expression(Expression, source: String)
    }

    public var parts: [Part]
    public var source: String
    /// The same text in other languages (`fail: { en: …, de: … }`), checked like this one.
    public var byLanguage: [String: Template] = [:]

    public init(parts: [Part], source: String) {
        self.parts = parts
        self.source = source
    }

    /// The text in `language` when it was given in it, else this one.
    public func localized(_ language: String?) -> Template {
        language.flatMap { byLanguage[$0] } ?? self
    }

    /// The one expression when the template is exactly `${expr}`: its value keeps its type.
    public var soleExpression: Expression? {
        if parts.count == 1, case .expression(let expression, _) = parts[0] { return expression }
        return nil
    }

    public var expressions: [Expression] {
        parts.compactMap { part in
            if case .expression(let expression, _) = part { return expression }
            return nil
        }
    }
}
