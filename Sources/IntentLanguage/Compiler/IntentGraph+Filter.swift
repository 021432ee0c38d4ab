import IntentModel
import YAML

extension IntentGraph {
    /// A `where` condition over `entity`'s properties, typed against the graph (for
    /// `intents store list --where`). Throws the first problem as a message with its column.
    public func filter(_ source: String, for entity: QualifiedName) throws(FilterError) -> IntentModel.Expression {
        try check(source, app: entity.app, named: "--where") { checker, parsed, environment in
            checker.checkCondition(parsed, in: environment.entities[entity] ?? [:])
        }
    }

    /// An expression over the store as `app`'s definitions would write it (`count(Task where …)`),
    /// typed against the graph.
    public func expression(_ source: String, app: String) throws(FilterError) -> IntentModel.Expression {
        try check(source, app: app, named: "expression") { checker, parsed, _ in checker.check(parsed, in: [:]).0 }
    }

    private func check(
        _ source: String, app: String, named file: String,
        _ body: (inout ExpressionChecker, Expression, TypeEnvironment) -> Expression
    ) throws(FilterError) -> Expression {
        let environment = TypeEnvironment(graph: self)
        let parsed: Expression
        do {
            parsed = try ExpressionParser.parse(source)
        } catch {
            throw FilterError(message: error.message, column: error.offset + 1)
        }
        var checker = ExpressionChecker(environment: environment, app: app) { span in
            SourceRange(
                start: Mark(file: file, line: 1, column: span.lowerBound + 1),
                end: Mark(file: file, line: 1, column: span.upperBound + 1))
        }
        let checked = body(&checker, parsed, environment)
        if let problem = checker.diagnostics.diagnostics.first(where: { $0.severity == .error }) {
            throw FilterError(message: problem.message.text, column: problem.location?.start.column ?? 1)
        }
        return checked
    }

    public struct FilterError: Error, CustomStringConvertible {
        public let message: String
        public let column: Int
        public var description: String { "\(message) (column \(column))" }
    }
}
