import IntentModel
import YAML

extension Diagnostic.Message {
    static func storeSets(_ property: String) -> Self { "'\(property)' is kept by the store and cannot be set" }
    static func propertyType(_ property: String, _ expected: ValueType, _ found: ValueType) -> Self {
        "'\(property)' is \(expected), but the value is \(found)"
    }
}

extension Compiler {
    /// What the perform steps of one intent share while they are checked: the names in scope (each
    /// step's `as:` adds one for the steps after it), the app they belong to, and the names they read
    /// (a parameter none reads is reported).
    struct StepContext {
        var scope: ExpressionChecker.Scope
        let app: String
        var used: Set<String>

        /// Marks the names `templates` read as used.
        mutating func use(_ templates: [Template]) {
            for template in templates {
                for case .expression(let expression, _) in template.parts { use(expression) }
            }
        }

        /// Marks the names `expression` reads as used.
        mutating func use(_ expression: Expression) { expression.forEachName { used.insert($0) } }
    }

    /// Checks a perform step in `context`, adding what it binds with `as:` for the steps after it.
    mutating func compileStep(
        _ step: StepDefinition, in context: inout StepContext
    ) -> IntentGraph.Step? {
        switch step.kind {
        case .create(let entityName):
            return compileCreate(entityName, step, in: &context)
        case .update(let targetSource):
            return compileUpdate(targetSource, step, in: &context)
        case .delete(let targetSource):
            return compileDelete(targetSource, step, in: &context)
        case .find(let entityName, let queryDefinition, let first):
            return compileFind(
                entityName, query: queryDefinition, first: first, step, in: &context)
        case .bind(let values):
            return compileBind(values, step, in: &context)
        case .call(let intentName, let arguments):
            return compileCallStep(intentName, arguments, step, in: &context)
        case .open(let url):
            return compileOpen(url, step, in: &context)
        case .fail(let message):
            return compileFail(message, step, in: &context)
        case .activity(let definition):
            return compileActivity(definition, step, in: &context)
        case .branch(let conditionSource, let thenSteps, let elseSteps):
            return compileBranch(
                conditionSource, then: thenSteps, otherwise: elseSteps, step, in: &context)
        }
    }

    /// Binds the step's `as:` name to `type` for the steps after it.
    private mutating func bindStep(
        _ step: StepDefinition, _ type: ValueType?, into scope: inout ExpressionChecker.Scope
    ) {
        guard let binding = step.binding else { return }
        if !Self.isIdentifier(binding.value) {
            diagnostics.error("'\(binding.value)' is not a valid name: use letters, digits and '_'", at: binding.range)
        } else if let type {
            scope[binding.value] = type
        }
    }

    /// `create:`.
    private mutating func compileCreate(
        _ entityName: Located<String>, _ step: StepDefinition, in context: inout StepContext
    ) -> IntentGraph.Step? {
        guard let entity = resolveEntity(entityName, app: context.app) else { return nil }
        let set = assignments(
            step.set, entity: entity, scope: context.scope, app: context.app, requireAll: true, at: step.range)
        context.use(set.map(\.value))
        bindStep(step, .entity(entity), into: &context.scope)
        return .create(entity: entity, set: set, binding: step.binding?.value)
    }

    /// `update:` with `set:`, `increment:` and `toggle:`.
    private mutating func compileUpdate(
        _ targetSource: Located<String>, _ step: StepDefinition, in context: inout StepContext
    ) -> IntentGraph.Step? {
        guard
            let (target, type) = checkExpression(targetSource, scope: context.scope, app: context.app, condition: false)
        else {
            return nil
        }
        context.use(target)
        guard let targetType = type.valueType, let entity = targetType.entityName ?? targetType.element?.entityName
        else {
            if let found = type.valueType {
                diagnostics.error(
                    .typeMismatch("'update'", expected: "an entity or a list of entities", found: found),
                    at: targetSource.range)
            }
            return nil
        }
        let set = assignments(
            step.set, entity: entity, scope: context.scope, app: context.app, requireAll: false, at: step.range)
        let increment = assignments(
            step.increment, entity: entity, scope: context.scope, app: context.app, requireAll: false, at: step.range)
        for (assignment, (name, _)) in zip(increment, step.increment) {
            let type = environment.entities[entity]?[assignment.name]
            if let type, !type.isNumeric && type != .duration {
                diagnostics.error(
                    "'increment' adds to numbers and durations; '\(assignment.name)' is \(type)", at: name.range)
            }
        }
        var toggle: [String] = []
        for property in step.toggle {
            guard let type = environment.entities[entity]?[property.value] else {
                if hasFailed(entity, property.value) { continue }
                diagnostics.missing(
                    .noProperty(entity.name, property.value), property.value, at: property.range,
                    known: (environment.entities[entity] ?? [:]).keys.sorted())
                continue
            }
            if type != .boolean {
                diagnostics.error("'toggle' flips booleans; '\(property.value)' is \(type)", at: property.range)
                continue
            }
            toggle.append(property.value)
        }
        // Said of the step as written: assignments dropped for an error (a property whose type is
        // unknown, say) were reported already, and would make this warning a wrong second one.
        if step.set.isEmpty, step.increment.isEmpty, step.toggle.isEmpty {
            diagnostics.warning(
                "this 'update' changes nothing: give 'set', 'increment' or 'toggle'", at: step.range)
        }
        context.use(set.map(\.value) + increment.map(\.value))
        bindStep(step, targetType, into: &context.scope)
        return .update(target: target, set: set, increment: increment, toggle: toggle, binding: step.binding?.value)
    }

    /// `delete:`.
    private mutating func compileDelete(
        _ targetSource: Located<String>, _ step: StepDefinition, in context: inout StepContext
    ) -> IntentGraph.Step? {
        guard
            let (target, type) = checkExpression(targetSource, scope: context.scope, app: context.app, condition: false)
        else {
            return nil
        }
        context.use(target)
        if let found = type.valueType, found.entityName == nil, found.element?.entityName == nil {
            diagnostics.error(
                .typeMismatch("'delete'", expected: "an entity or a list of entities", found: found),
                at: targetSource.range)
            return nil
        }
        return .delete(target: target)
    }

    /// `find:` and `find_first:`.
    private mutating func compileFind(
        _ entityName: Located<String>, query queryDefinition: QueryDefinition, first: Bool, _ step: StepDefinition,
        in context: inout StepContext
    ) -> IntentGraph.Step? {
        guard let entity = resolveEntity(entityName, app: context.app),
            let query = compileQuery(queryDefinition, entity: entity, outer: context.scope, app: context.app)
        else { return nil }
        if let filter = query.filter { context.use(filter) }
        bindStep(step, first ? .entity(entity) : .array(.entity(entity)), into: &context.scope)
        return .find(query, first: first, binding: step.binding?.value)
    }

    /// `let:`.
    private mutating func compileBind(
        _ values: [(Located<String>, Node)], _ step: StepDefinition, in context: inout StepContext
    ) -> IntentGraph.Step? {
        var bindings: [IntentGraph.Assignment] = []
        for (name, node) in values {
            if !Self.isIdentifier(name.value) {
                diagnostics.error(
                    "'\(name.value)' is not a valid name: use letters, digits and '_'", at: name.range)
                continue
            }
            guard let (template, type) = assignmentTemplate(node, scope: context.scope, app: context.app) else {
                continue
            }
            context.use([template])
            if let type = type.valueType { context.scope[name.value] = type }
            bindings.append(IntentGraph.Assignment(name: name.value, value: template))
        }
        return .bind(bindings)
    }

    /// `call:`.
    private mutating func compileCallStep(
        _ intentName: Located<String>, _ arguments: [(Located<String>, Node)], _ step: StepDefinition,
        in context: inout StepContext
    ) -> IntentGraph.Step? {
        guard let (callee, compiled) = compileCall(intentName, arguments, scope: context.scope, app: context.app) else {
            return nil
        }
        context.use(compiled.map(\.value))
        if step.binding != nil, callee.resultType == nil {
            diagnostics.error("'\(callee.name.name)' has no result value to bind", at: step.binding?.range)
        }
        bindStep(step, callee.resultType, into: &context.scope)
        return .call(intent: callee.name, arguments: compiled, binding: step.binding?.value)
    }

    /// `open:`.
    private mutating func compileOpen(
        _ url: Located<String>, _ step: StepDefinition, in context: inout StepContext
    ) -> IntentGraph.Step? {
        guard let (template, _) = checkTemplate(url, scope: context.scope, app: context.app) else { return nil }
        context.use([template])
        return .open(url: template)
    }

    /// `fail:`.
    private mutating func compileFail(
        _ message: Located<String>, _ step: StepDefinition, in context: inout StepContext
    ) -> IntentGraph.Step? {
        guard var (template, _) = checkTemplate(message, scope: context.scope, app: context.app) else { return nil }
        for (language, text) in step.failMessages.sorted(by: { $0.key < $1.key }) {
            if let (translated, _) = checkTemplate(text, scope: context.scope, app: context.app) {
                template.byLanguage[language] = translated
            }
        }
        context.use([template] + Array(template.byLanguage.values))
        return .fail(message: template)
    }

    /// A live activity step.
    private mutating func compileActivity(
        _ definition: ActivityStepDefinition, _ step: StepDefinition, in context: inout StepContext
    ) -> IntentGraph.Step? {
        guard let compiled = compileActivityStep(definition, scope: context.scope, app: context.app) else { return nil }
        context.use(compiled.arguments.map(\.value) + (compiled.id.map { [$0] } ?? []))
        return .activity(compiled)
    }

    /// `if:` with `then:` and `else:`.
    private mutating func compileBranch(
        _ conditionSource: Located<String>, then thenSteps: [StepDefinition], otherwise elseSteps: [StepDefinition],
        _ step: StepDefinition, in context: inout StepContext
    ) -> IntentGraph.Step? {
        guard
            let (condition, _) = checkExpression(
                conditionSource, scope: context.scope, app: context.app, condition: true)
        else {
            return nil
        }
        context.use(condition)
        // Names bound inside a branch stay inside it.
        let outer = context.scope
        let then = thenSteps.compactMap { compileStep($0, in: &context) }
        context.scope = outer
        let otherwise = elseSteps.compactMap { compileStep($0, in: &context) }
        context.scope = outer
        return .branch(condition: condition, then: then, otherwise: otherwise)
    }

    mutating func resolveEntity(_ located: Located<String>, app: String) -> QualifiedName? {
        if let name = environment.entityName(located.value, app: app) { return name }
        diagnostics.unknown(
            "entity", located.value, at: located.range,
            known: environment.entities.keys.filter { $0.app == app }.map(\.name).sorted())
        return nil
    }

    /// An intent named by a step, control or button, and its arguments checked against its parameters;
    /// every required parameter must be given.
    mutating func compileCall(
        _ intentName: Located<String>, _ arguments: [(Located<String>, Node)], scope: ExpressionChecker.Scope,
        app: String
    ) -> (IntentGraph.Intent, [IntentGraph.Assignment])? {
        let parts = intentName.value.split(separator: ".", maxSplits: 1).map(String.init)
        let qualified =
            parts.count == 2
            ? QualifiedName(app: parts[0], name: parts[1]) : QualifiedName(app: app, name: intentName.value)
        if intentsInProgress.contains(qualified) {
            diagnostics.error("'\(intentName.value)' calls itself through this step", at: intentName.range)
            return nil
        }
        if callNestsTooDeep(at: intentName.range) { return nil }
        guard let callee = compileIntent(qualified) else {
            if apps[qualified.app]?.intentDefinitions[qualified.name] == nil {
                diagnostics.unknown(
                    "intent", intentName.value, at: intentName.range,
                    known: apps[app]?.intentDefinitions.keys.sorted() ?? [])
            }
            return nil
        }
        var compiled: [IntentGraph.Assignment] = []
        for (name, node) in arguments {
            guard let parameter = callee.parameter(name.value) else {
                if hasFailed(callee.name, name.value) { continue }
                diagnostics.missing(
                    "\'\(callee.name.name)\' has no parameter \'\(name.value)\'", name.value, at: name.range,
                    known: callee.parameters.map(\.name))
                continue
            }
            if let argument = typedArgument(name, node, parameter.type, scope: scope, app: app) {
                compiled.append(argument)
            }
        }
        for parameter in callee.parameters
        where parameter.isRequired && !arguments.contains(where: { $0.0.value == parameter.name }) {
            diagnostics.error("calling '\(callee.name.name)' needs '\(parameter.name)'", at: intentName.range)
        }
        return (callee, compiled)
    }

    /// `name: value` given to something that takes `type` (a parameter, an activity's value); an enum
    /// also takes the text of a case.
    mutating func typedArgument(
        _ name: Located<String>, _ node: Node, _ type: ValueType, scope: ExpressionChecker.Scope, app: String
    ) -> IntentGraph.Assignment? {
        guard let (template, found) = assignmentTemplate(node, scope: scope, app: app) else { return nil }
        if let found = found.valueType, !type.accepts(found), !(type.enumName != nil && found == .string) {
            diagnostics.error(.propertyType(name.value, type, found), at: node.range)
        }
        return IntentGraph.Assignment(name: name.value, value: template)
    }

    /// An expression that must give a number from 0 to 1 (a gauge, a progress), reported as `what`.
    mutating func fractionExpression(
        _ source: Located<String>, _ what: String, scope: ExpressionChecker.Scope, app: String
    ) -> Expression? {
        guard let (expression, type) = checkExpression(source, scope: scope, app: app, condition: false) else {
            return nil
        }
        if let found = type.valueType, found != .number, found != .integer {
            diagnostics.error("\(what) is a number from 0 to 1, not \(found)", at: source.range)
        }
        return expression
    }

    /// `set:` (and `increment:`) values checked against the entity's properties.
    private mutating func assignments(
        _ pairs: [(Located<String>, Node)], entity: QualifiedName, scope: ExpressionChecker.Scope, app: String,
        requireAll: Bool, at range: SourceRange
    ) -> [IntentGraph.Assignment] {
        let properties = environment.entities[entity] ?? [:]
        let declared = entities[entity]?.properties ?? []
        var result: [IntentGraph.Assignment] = []
        for (name, node) in pairs {
            guard let type = properties[name.value] else {
                if hasFailed(entity, name.value) { continue }
                diagnostics.missing(
                    .noProperty(entity.name, name.value), name.value, at: name.range, known: properties.keys.sorted())
                continue
            }
            if declared.first(where: { $0.name == name.value })?.isBuiltin == true {
                diagnostics.error(.storeSets(name.value), at: name.range)
                continue
            }
            // A plain word naming a case sets an enum property to it: `set: { fortuneType: love }`.
            if case .enumeration(let enumeration) = type, let scalar = node.scalar, scalar.style == .plain,
                environment.enums[enumeration]?.contains(scalar.value) == true
            {
                let expression = Expression(.enumCase(enumeration, scalar.value), span: 0..<scalar.value.count)
                result.append(
                    IntentGraph.Assignment(
                        name: name.value,
                        value: Template(parts: [.expression(expression, source: scalar.value)], source: scalar.value)))
                continue
            }
            guard let (template, valueType) = assignmentTemplate(node, scope: scope, app: app) else { continue }
            if let found = valueType.valueType, !type.accepts(found) {
                diagnostics.error(.propertyType(name.value, type, found), at: node.range)
            }
            result.append(IntentGraph.Assignment(name: name.value, value: template))
        }
        if requireAll {
            for property in declared where !property.isBuiltin && !property.isOptional && property.defaultValue == nil {
                if !pairs.contains(where: { $0.0.value == property.name }) {
                    diagnostics.error("creating \(entity.name) needs a value for '\(property.name)'", at: range)
                }
            }
        }
        return result
    }
}
