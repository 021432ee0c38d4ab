import IntentModel
import YAML

extension IntentGraph {
    /// A `where` condition over `entity`'s properties, typed against the graph (for
    /// `intents store list --where`). Throws the first problem as a message with its column.
    public func filter(_ source: String, for entity: QualifiedName) throws(FilterError) -> IntentModel.Expression {
        let environment = TypeEnvironment(graph: self)
        let parsed: Expression
        do {
            parsed = try ExpressionParser.parse(source)
        } catch {
            throw FilterError(message: error.message, column: error.offset + 1)
        }
        let file = "--where"
        var checker = ExpressionChecker(environment: environment, app: entity.app) { span in
            SourceRange(
                start: Mark(file: file, line: 1, column: span.lowerBound + 1),
                end: Mark(file: file, line: 1, column: span.upperBound + 1))
        }
        let checked = checker.checkCondition(parsed, in: environment.entities[entity] ?? [:])
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
