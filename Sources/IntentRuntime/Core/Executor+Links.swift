import IntentModel

extension Executor {
    /// What an `open:` opens: an entity (`open: "${radar}"`) by its canonical link, anything else as rendered.
    func link(_ template: Template, in scope: Evaluator.Scope, _ evaluator: Evaluator) throws(RuntimeError) -> String {
        if template.soleExpression != nil, case .entity(let record) = try evaluator.value(of: template, in: scope),
            let link = graph.canonicalLink(for: record.entity, id: record.id)
        {
            return link
        }
        return try evaluator.render(template, in: scope)
    }
}
