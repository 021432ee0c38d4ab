import IntentModel

/// A parse error at a character offset of the expression or template source.
struct ExpressionSyntaxError: Error {
    var message: String
    var offset: Int
}

/// Parses the expression language: literals, names, `.` members, calls, `!`, `-`, `* / %`, `+ -`,
/// comparisons, `in`, `&&`, `||`, `??`, `c ? a : b`, and `Entity where expr` queries.
struct ExpressionParser {
    private enum Token: Equatable {
        case identifier(String)
        case integer(Int)
        case number(Double)
        case string(String)
        case symbol(Symbol)
        case end
    }

    /// An operator or punctuation of one or two ASCII characters, as one number: the parser asks
    /// "is the next token `+`?" a dozen times per operand, and comparing strings was most of parsing.
    struct Symbol: Equatable, ExpressibleByStringLiteral, CustomStringConvertible {
        let code: UInt16

        init(_ first: Unicode.Scalar, _ second: Unicode.Scalar? = nil) {
            code = UInt16(truncatingIfNeeded: first.value) | UInt16(truncatingIfNeeded: second?.value ?? 0) << 8
        }

        init(stringLiteral text: StaticString) {
            let bytes = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
            code = UInt16(bytes[0]) | (bytes.count > 1 ? UInt16(bytes[1]) << 8 : 0)
        }

        /// Characters it spans in the source.
        var count: Int { code > 0xFF ? 2 : 1 }

        var description: String {
            let first = String(UnicodeScalar(UInt8(code & 0xFF)))
            return code > 0xFF ? first + String(UnicodeScalar(UInt8(code >> 8))) : first
        }
    }

    private var tokens: [(token: Token, start: Int, end: Int)] = []
    private var index = 0
    private var depth = 0
    private let baseOffset: Int
    static let maximumDepth = 64
    /// Most tokens one expression may have. A chain of operators (`a + b + …`) parses in a loop
    /// but makes a tree as deep as it is long, which checking, evaluating and freeing walk
    /// recursively: 4,000 terms overflowed the stack. 1,000 tokens bound the depth at about 500.
    static let maximumTokens = 1_000

    /// `baseOffset` shifts every span, for expressions inside templates.
    private init(baseOffset: Int) {
        self.baseOffset = baseOffset
    }

    static func parse(_ source: String, baseOffset: Int = 0) throws(ExpressionSyntaxError) -> Expression {
        var parser = ExpressionParser(baseOffset: baseOffset)
        // ASCII (nearly every expression) is scanned in place from its bytes; other text from its scalars.
        let ascii: Bool? = try ASCIIScalars.read(source) { (characters) throws(ExpressionSyntaxError) in
            try parser.tokenize(characters)
            return true
        }
        if ascii == nil { try parser.tokenize([Unicode.Scalar](source.unicodeScalars)) }
        if parser.tokens.count > maximumTokens + 1 {
            throw ExpressionSyntaxError(
                message: "expression too long: more than \(maximumTokens) tokens",
                offset: baseOffset + parser.tokens[maximumTokens].start)
        }
        let expression = try parser.parseArgument()
        guard case .end = parser.current else {
            throw parser.error("unexpected '\(parser.describe(parser.current))'")
        }
        return expression
    }

    // MARK: - Tokens

    private mutating func tokenize<Characters: ScalarText>(_ characters: Characters) throws(ExpressionSyntaxError) {
        // At most one token per character and the end: room at once instead of growing 1, 2, 4, ….
        tokens.reserveCapacity(min(characters.count, Self.maximumTokens) + 2)
        var i = 0
        while i < characters.count {
            let c = characters[i]
            if c.isSpace {
                i += 1
                continue
            }
            let start = i
            if c.isIdentifierStart {
                while i < characters.count, characters[i].isIdentifierPart { i += 1 }
                tokens.append((.identifier(characters.string(start..<i)), start, i))
            } else if c.isDigit {
                while i < characters.count, characters[i].isDigit || characters[i] == "_" { i += 1 }
                var isDecimal = false
                if i + 1 < characters.count, characters[i] == ".", characters[i + 1].isDigit {
                    isDecimal = true
                    i += 1
                    while i < characters.count, characters[i].isDigit { i += 1 }
                }
                let text = characters.string(start..<i).filter { $0 != "_" }
                if isDecimal, let value = Double(text) {
                    tokens.append((.number(value), start, i))
                } else if let value = Int(text) {
                    tokens.append((.integer(value), start, i))
                } else {
                    throw ExpressionSyntaxError(message: "number '\(text)' is too large", offset: baseOffset + start)
                }
            } else if c == "\"" || c == "'" {
                i += 1
                var text = ""
                while i < characters.count, characters[i] != c {
                    if characters[i] == "\\", i + 1 < characters.count { i += 1 }
                    text.unicodeScalars.append(characters[i])
                    i += 1
                }
                guard i < characters.count else {
                    throw ExpressionSyntaxError(message: "unterminated string", offset: baseOffset + start)
                }
                i += 1
                tokens.append((.string(text), start, i))
            } else if let symbol = Self.symbol(at: i, in: characters) {
                i += symbol.count
                tokens.append((.symbol(symbol), start, i))
            } else {
                throw ExpressionSyntaxError(message: "unexpected character '\(c)'", offset: baseOffset + start)
            }
        }
        tokens.append((.end, characters.count, characters.count))
    }

    /// The symbol at `i`, the longer one first so that `==` is not read as `=`: `==`, `!=`, `<=`, `>=`,
    /// `&&`, `||`, `??`, then `! < > + - * / % ( ) [ ] , . ? :`.
    private static func symbol<Characters: ScalarText>(at i: Int, in characters: Characters) -> Symbol? {
        let c = characters[i]
        let next: Unicode.Scalar? = i + 1 < characters.count ? characters[i + 1] : nil
        switch (c, next) {
        case ("=", "="), ("!", "="), ("<", "="), (">", "="), ("&", "&"), ("|", "|"), ("?", "?"):
            return Symbol(c, next)
        default: break
        }
        switch c {
        case "!", "<", ">", "+", "-", "*", "/", "%", "(", ")", "[", "]", ",", ".", "?", ":": return Symbol(c)
        default: return nil
        }
    }

    private var current: Token { tokens[index].token }
    private var currentStart: Int { tokens[index].start }

    private func describe(_ token: Token) -> String {
        switch token {
        case .identifier(let name): name
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .string(let text): "\"\(text)\""
        case .symbol(let symbol): symbol.description
        case .end: "end of expression"
        }
    }

    private func error(_ message: String) -> ExpressionSyntaxError {
        ExpressionSyntaxError(message: message, offset: baseOffset + currentStart)
    }

    private mutating func take(_ symbol: Symbol) -> Bool {
        if case .symbol(let found) = current, found == symbol {
            index += 1
            return true
        }
        return false
    }

    private mutating func takeKeyword(_ word: String) -> Bool {
        // Lengths first: most identifiers are not the keyword asked for, and `==` on two short
        // strings that differ goes through the slow comparison.
        if case .identifier(let name) = current, name.utf8.count == word.utf8.count, name == word {
            index += 1
            return true
        }
        return false
    }

    private mutating func expect(_ symbol: Symbol) throws(ExpressionSyntaxError) {
        guard take(symbol) else {
            if case .end = current { throw error("expected '\(symbol)' before the end of the expression") }
            throw error("expected '\(symbol)', found '\(describe(current))'")
        }
    }

    private func node(_ kind: Expression.Kind, from start: Int) -> Expression {
        let end = index > 0 ? tokens[index - 1].end : start
        return Expression(kind, span: (baseOffset + start)..<(baseOffset + max(end, start)))
    }

    // MARK: - Grammar

    private mutating func parseTernary() throws(ExpressionSyntaxError) -> Expression {
        try enterNesting()
        defer { depth -= 1 }
        let start = currentStart
        let condition = try parseCoalesce()
        guard take("?") else { return condition }
        let then = try parseTernary()
        try expect(":")
        let otherwise = try parseTernary()
        return node(.conditional(condition, then, otherwise), from: start)
    }

    /// Counts one level of nesting; deeper than `maximumDepth` is an error, not a stack overflow.
    private mutating func enterNesting() throws(ExpressionSyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            depth -= 1
            throw error("expression nested too deeply")
        }
    }

    private mutating func parseCoalesce() throws(ExpressionSyntaxError) -> Expression {
        let start = currentStart
        var left = try parseOr()
        while take("??") {
            let right = try parseOr()
            left = node(.binary(.coalesce, left, right), from: start)
        }
        return left
    }

    private mutating func parseOr() throws(ExpressionSyntaxError) -> Expression {
        let start = currentStart
        var left = try parseAnd()
        while take("||") || takeKeyword("or") {
            let right = try parseAnd()
            left = node(.binary(.or, left, right), from: start)
        }
        return left
    }

    private mutating func parseAnd() throws(ExpressionSyntaxError) -> Expression {
        let start = currentStart
        var left = try parseNot()
        while take("&&") || takeKeyword("and") {
            let right = try parseNot()
            left = node(.binary(.and, left, right), from: start)
        }
        return left
    }

    private mutating func parseNot() throws(ExpressionSyntaxError) -> Expression {
        let start = currentStart
        if take("!") || takeKeyword("not") {
            try enterNesting()
            defer { depth -= 1 }
            let operand = try parseNot()
            return node(.unary(.not, operand), from: start)
        }
        return try parseComparison()
    }

    private static let comparisons: [(Symbol, Expression.BinaryOperator)] = [
        ("==", .equal), ("!=", .notEqual), ("<=", .lessOrEqual), (">=", .greaterOrEqual), ("<", .less),
        (">", .greater),
    ]

    private mutating func parseComparison() throws(ExpressionSyntaxError) -> Expression {
        let start = currentStart
        let left = try parseAdditive()
        for (symbol, op) in Self.comparisons where take(symbol) {
            let right = try parseAdditive()
            return node(.binary(op, left, right), from: start)
        }
        if takeKeyword("in") {
            let right = try parseAdditive()
            return node(.binary(.contains, left, right), from: start)
        }
        return left
    }

    private mutating func parseAdditive() throws(ExpressionSyntaxError) -> Expression {
        let start = currentStart
        var left = try parseMultiplicative()
        while true {
            let op: Expression.BinaryOperator
            if take("+") { op = .add } else if take("-") { op = .subtract } else { return left }
            let right = try parseMultiplicative()
            left = node(.binary(op, left, right), from: start)
        }
    }

    private mutating func parseMultiplicative() throws(ExpressionSyntaxError) -> Expression {
        let start = currentStart
        var left = try parseUnary()
        while true {
            let op: Expression.BinaryOperator
            if take("*") {
                op = .multiply
            } else if take("/") {
                op = .divide
            } else if take("%") {
                op = .remainder
            } else {
                return left
            }
            let right = try parseUnary()
            left = node(.binary(op, left, right), from: start)
        }
    }

    private mutating func parseUnary() throws(ExpressionSyntaxError) -> Expression {
        let start = currentStart
        if take("-") {
            try enterNesting()
            defer { depth -= 1 }
            let operand = try parseUnary()
            return node(.unary(.negate, operand), from: start)
        }
        if take("!") {
            try enterNesting()
            defer { depth -= 1 }
            let operand = try parseUnary()
            return node(.unary(.not, operand), from: start)
        }
        return try parsePostfix()
    }

    private mutating func parsePostfix() throws(ExpressionSyntaxError) -> Expression {
        let start = currentStart
        var base = try parsePrimary()
        while take(".") {
            guard case .identifier(let member) = current else { throw error("expected a property name after '.'") }
            index += 1
            base = node(.member(base, member), from: start)
        }
        return base
    }

    private mutating func parsePrimary() throws(ExpressionSyntaxError) -> Expression {
        let start = currentStart
        switch current {
        case .integer(let value):
            index += 1
            return node(.literal(.integer(value)), from: start)
        case .number(let value):
            index += 1
            return node(.literal(.number(value)), from: start)
        case .string(let text):
            index += 1
            return node(.literal(.string(text)), from: start)
        case .identifier(let name):
            index += 1
            // By length first: a name that differs from all four went through four slow comparisons.
            switch name.utf8.count {
            case 3 where name == "nil", 4 where name == "null": return node(.null, from: start)
            case 4 where name == "true": return node(.literal(.boolean(true)), from: start)
            case 5 where name == "false": return node(.literal(.boolean(false)), from: start)
            default: break
            }
            guard take("(") else { return node(.name(name), from: start) }
            var arguments: [Expression] = []
            if !take(")") {
                repeat {
                    arguments.append(try parseArgument())
                } while take(",")
                try expect(")")
            }
            return node(.call(name, arguments), from: start)
        case .symbol("("):
            index += 1
            let inner = try parseTernary()
            try expect(")")
            return inner
        case .symbol("["):
            index += 1
            var items: [Expression] = []
            if !take("]") {
                repeat {
                    items.append(try parseTernary())
                } while take(",")
                try expect("]")
            }
            return node(.list(items), from: start)
        case .symbol("."):
            index += 1
            guard case .identifier(let name) = current else { throw error("expected a case name after '.'") }
            index += 1
            return node(.implicitCase(name), from: start)
        case .end:
            throw error("expected an expression")
        default:
            throw error("unexpected '\(describe(current))'")
        }
    }

    /// A call argument or a whole expression: an expression, or `Entity where condition` /
    /// `App.Entity where condition` (a query).
    private mutating func parseArgument() throws(ExpressionSyntaxError) -> Expression {
        let start = currentStart
        if case .identifier(let name) = current, index + 1 < tokens.count,
            tokens[index + 1].token == .identifier("where")
        {
            index += 2
            let filter = try parseTernary()
            return node(.query(entity: name, filter: filter), from: start)
        }
        if case .identifier(let app) = current, index + 3 < tokens.count, tokens[index + 1].token == .symbol("."),
            case .identifier(let name) = tokens[index + 2].token, tokens[index + 3].token == .identifier("where")
        {
            index += 4
            let filter = try parseTernary()
            return node(.query(entity: app + "." + name, filter: filter), from: start)
        }
        return try parseTernary()
    }
}

/// Splits `text ${expr} text` into parts; `$${` writes a literal `${`.
enum TemplateParser {
    static func parse(_ source: String) throws(ExpressionSyntaxError) -> Template {
        // Most texts have no `$` at all: one text part, nothing to split.
        guard source.utf8.contains(UInt8(ascii: "$")) else { return Template(parts: [.text(source)], source: source) }
        // ASCII is scanned in place from its bytes; other text from its scalars.
        let ascii = try ASCIIScalars.read(source) { (characters) throws(ExpressionSyntaxError) in
            try parse(characters, source: source)
        }
        if let ascii { return ascii }
        return try parse([Unicode.Scalar](source.unicodeScalars), source: source)
    }

    private static func parse<Characters: ScalarText>(_ characters: Characters, source: String)
        throws(ExpressionSyntaxError) -> Template
    {
        var parts: [Template.Part] = []
        parts.reserveCapacity(4)
        var text = ""
        /// Where the literal text not yet copied into `text` begins: copied a run at a time.
        var runStart = 0
        var i = 0
        while i < characters.count {
            if characters[i] == "$", i + 2 < characters.count, characters[i + 1] == "$", characters[i + 2] == "{" {
                text += characters.string(runStart..<i) + "${"
                i += 3
                runStart = i
                continue
            }
            guard characters[i] == "$", i + 1 < characters.count, characters[i + 1] == "{" else {
                i += 1
                continue
            }
            text += characters.string(runStart..<i)
            let open = i
            var j = i + 2
            var braces = 0
            var quote: Unicode.Scalar?
            while j < characters.count {
                let c = characters[j]
                if let q = quote {
                    if c == "\\" { j += 1 } else if c == q { quote = nil }
                } else if c == "\"" || c == "'" {
                    quote = c
                } else if c == "{" {
                    braces += 1
                } else if c == "}" {
                    if braces == 0 { break }
                    braces -= 1
                }
                j += 1
            }
            guard j < characters.count else {
                throw ExpressionSyntaxError(message: "'${' is never closed with '}'", offset: open)
            }
            let inner = characters.string((open + 2)..<j)
            if inner.unicodeScalars.allSatisfy(\.isSpace) {
                throw ExpressionSyntaxError(message: "empty '${}'", offset: open)
            }
            if !text.isEmpty {
                parts.append(.text(text))
                text = ""
            }
            let expression = try ExpressionParser.parse(inner, baseOffset: open + 2)
            parts.append(.expression(expression, source: inner))
            i = j + 1
            runStart = i
        }
        text += characters.string(runStart..<characters.count)
        if !text.isEmpty || parts.isEmpty { parts.append(.text(text)) }
        return Template(parts: parts, source: source)
    }
}
