import Foundation
import IntentModel
import YAML

extension Compiler {
    /// Compiles an intent once (memoized); calls between intents compile the callee first.
    mutating func compileIntent(_ name: QualifiedName) -> IntentGraph.Intent? {
        if let done = intents[name] { return done }
        guard let definition = apps[name.app]?.intentDefinitions[name.name] else { return nil }
        if intentsInProgress.contains(name) { return nil }
        intentsInProgress.append(name)
        let outerSilentNames = silentNames
        silentNames = []
        defer {
            intentsInProgress.removeAll { $0 == name }
            silentNames = outerSilentNames
        }
        let app = apps[name.app]!

        let parameters = compileParameters(definition, app: name.app)
        var scope = constantScope(app: name.app)
        for parameter in parameters { scope[parameter.name] = parameter.type }
        let parameterScope = scope
        var used: Set<String> = []
        func use(_ expressions: [Expression]) {
            for expression in expressions { expression.forEachName { used.insert($0) } }
        }

        var summary: [IntentGraph.SummaryBranch] = []
        for (index, branch) in definition.summary.enumerated() {
            let condition = branch.condition.flatMap {
                checkExpression($0, scope: parameterScope, app: name.app, condition: true)?.0
            }
            if branch.condition == nil, index < definition.summary.count - 1 {
                diagnostics.warning(
                    "a summary branch without 'when' hides the branches after it", at: branch.text.range)
            }
            guard var (text, _) = checkTemplate(branch.text, scope: parameterScope, app: name.app) else { continue }
            for (language, translation) in branch.texts.sorted(by: { $0.key < $1.key }) {
                if let (template, _) = checkTemplate(translation, scope: parameterScope, app: name.app) {
                    text.byLanguage[language] = template
                }
            }
            use(text.expressions + (condition.map { [$0] } ?? []))
            summary.append(
                IntentGraph.SummaryBranch(condition: condition, conditionSource: branch.condition?.value, text: text))
        }

        let phrases = compilePhrases(definition.phrases, parameters: parameters, app: app)
        let negativePhrases = compilePhrases(definition.negativePhrases, parameters: parameters, app: app)

        var perform: [IntentGraph.Step] = []
        var steps = StepContext(scope: scope, app: name.app, used: used)
        for step in definition.perform {
            if let compiled = compileStep(step, in: &steps) { perform.append(compiled) }
        }
        scope = steps.scope
        used = steps.used

        var resultValue: Template?
        var resultType: ValueType?
        if let source = definition.resultValue,
            let (template, type) = checkTemplate(source, scope: scope, app: name.app)
        {
            resultValue = template
            resultType = type.valueType
            use(template.expressions)
        }
        let resultDialog = definition.resultDialog.flatMap { checkTemplate($0, scope: scope, app: name.app)?.0 }
        var resultDialogs: [String: Template] = [:]
        for (language, text) in definition.resultDialogs.sorted(by: { $0.key < $1.key }) {
            if let template = checkTemplate(text, scope: scope, app: name.app)?.0 {
                resultDialogs[language] = template
                use(template.expressions)
            }
        }
        let opens = definition.opens.flatMap { checkTemplate($0, scope: scope, app: name.app)?.0 }
        use((resultDialog?.expressions ?? []) + (opens?.expressions ?? []))

        var confirmation: IntentGraph.Confirmation?
        switch definition.confirm {
        case .always(let flag)?: confirmation = flag.value ? .summary : nil
        case .dialog(let text)?:
            if let (template, _) = checkTemplate(text, scope: parameterScope, app: name.app) {
                confirmation = .dialog(template)
                use(template.expressions)
            }
        case .dialogs(let text, let texts)?:
            if var (template, _) = checkTemplate(text, scope: parameterScope, app: name.app) {
                for (language, text) in texts.sorted(by: { $0.key < $1.key }) {
                    if let (translated, _) = checkTemplate(text, scope: parameterScope, app: name.app) {
                        template.byLanguage[language] = translated
                    }
                }
                confirmation = .dialog(template)
                use(template.expressions)
            }
        case nil: break
        }

        var donate: [String] = []
        for entry in definition.donate {
            guard let parameter = parameters.first(where: { $0.name == entry.value }) else {
                diagnostics.unknown("parameter", entry.value, at: entry.range, known: parameters.map(\.name))
                continue
            }
            if [.date, .duration].contains(parameter.type.element ?? parameter.type) {
                diagnostics.warning(
                    .donatedMoment(entry.value, parameter.type.element ?? parameter.type), at: entry.range)
            }
            donate.append(entry.value)
        }

        if definition.examples.isEmpty, !definition.phrases.isEmpty {
            diagnostics.warning(
                "intent '\(name.name)' has no examples; add sentences people would say, so 'intents test' keeps them working",
                at: definition.name.range)
        }
        for parameter in parameters where !used.contains(parameter.name) {
            diagnostics.warning(
                "parameter '\(parameter.name)' is never used by the intent's steps, result or summary",
                at: parameter.location)
        }

        var intent = IntentGraph.Intent(
            name: name, title: definition.title?.value ?? Self.humanize(name.name),
            description: definition.description?.value,
            parameters: parameters, summary: summary, phrases: phrases, negativePhrases: negativePhrases,
            perform: perform,
            resultValue: resultValue, resultType: resultType, resultDialog: resultDialog, opens: opens,
            confirmation: confirmation, donate: donate, examples: [], location: definition.name.range,
            suggests: definition.suggest?.value ?? true)
        intent.resultDialogs = resultDialogs
        // Callees are compiled (memoized) before their caller, so their destructiveness is known here.
        intent.deletesThroughCalls = perform.flatMap(\.callees).contains { intents[$0]?.deletes == true }
        intent.activity = definition.activity.flatMap { compileActivity($0, scope: scope, app: name.app) }
        intent.trainingSentences = compileTraining(definition.training, parameters: parameters)
        intent.training = intent.trainingSentences.map(\.text)
        intents[name] = intent
        intent.examples = definition.examples.compactMap { compileExample($0, app: app, intent: intent) }
        intents[name] = intent
        return intent
    }

    private mutating func compileParameters(_ definition: IntentDefinition, app: String) -> [IntentGraph.Parameter] {
        compileParameters(definition.parameters, owner: definition.name.value, app: app)
    }

    /// Parameters of an intent or a configurable widget (`owner`), checked alike.
    mutating func compileParameters(
        _ definitions: [ParameterDefinition], owner: String, app: String
    ) -> [IntentGraph.Parameter] {
        var parameters: [IntentGraph.Parameter] = []
        for parameter in definitions {
            let name = parameter.name.value
            if !Self.isIdentifier(name) || name == "app" {
                diagnostics.error(
                    "'\(name)' is not a valid parameter name: use letters, digits and '_' (and not 'app')",
                    at: parameter.name.range)
                continue
            }
            guard let (type, optionalMark) = resolveType(parameter.type, app: app) else {
                silentNames.insert(name)
                failedMembers.insert("\(app).\(owner).\(name)")
                continue
            }
            var defaultValue: Value?
            if let node = parameter.defaultValue, !node.isNull {
                if case .entity = type {
                    diagnostics.error(
                        "an entity parameter cannot have a default; use the entity's 'suggested' query", at: node.range)
                } else {
                    defaultValue = value(node, as: type, context: "the default of '\(name)'")
                }
            }
            var validations: [IntentGraph.Validation] = []
            for validation in parameter.validations {
                if let compiled = compileValidation(validation, type: type, parameter: name) {
                    validations.append(compiled)
                    if let defaultValue, !Self.satisfies(defaultValue, compiled.rule) {
                        diagnostics.error(
                            "the default of '\(name)' breaks its own rule: \(compiled.message)",
                            at: parameter.defaultValue?.range)
                    }
                }
            }
            var compiled = IntentGraph.Parameter(
                name: name, type: type, title: parameter.title?.value ?? Self.humanize(name),
                prompt: parameter.prompt?.value, defaultValue: defaultValue,
                isOptional: parameter.optional || optionalMark, validations: validations,
                location: parameter.name.range)
            compiled.prompts = parameter.prompts.mapValues(\.value)
            compiled.context = parameter.context?.value
            parameters.append(compiled)
        }
        return parameters
    }

    private mutating func compileValidation(_ definition: ValidationDefinition, type: ValueType, parameter: String)
        -> IntentGraph.Validation?
    {
        let rule: IntentGraph.Validation.Rule
        let base = type.element ?? type
        switch definition.rule {
        case .min(let node), .max(let node):
            let isMin: Bool = { if case .min = definition.rule { return true } else { return false } }()
            guard base.isNumeric || base == .string || base == .duration else {
                diagnostics.error(
                    "'\(isMin ? "min" : "max")' applies to numbers, durations and string lengths, not \(type)",
                    at: definition.range)
                return nil
            }
            let bound: Double?
            if base == .duration, let text = node.string, let seconds = DurationText.parse(text) {
                bound = Double(seconds)
            } else {
                bound = node.double
            }
            guard let bound else {
                diagnostics.error(
                    base == .duration
                        ? "expected a duration (1m, 1h30m, 90s) or seconds for '\(isMin ? "min" : "max")'"
                        : "expected a number for '\(isMin ? "min" : "max")'", at: node.range)
                return nil
            }
            rule = isMin ? .min(bound) : .max(bound)
        case .pattern(let pattern):
            guard base == .string || base == .url else {
                diagnostics.error("'pattern' applies to strings and URLs, not \(type)", at: definition.range)
                return nil
            }
            do {
                _ = try NSRegularExpression(pattern: pattern.value)
            } catch {
                diagnostics.error("'\(pattern.value)' is not a valid regular expression", at: pattern.range)
                return nil
            }
            rule = .pattern(pattern.value)
        case .oneOf(let nodes):
            var values: [Value] = []
            for node in nodes {
                guard let value = value(node, as: base, context: "a value of 'oneOf'") else { return nil }
                values.append(value)
            }
            rule = .oneOf(values)
        }
        var validation = IntentGraph.Validation(
            rule: rule, message: definition.message?.value ?? Self.defaultMessage(rule, parameter: parameter))
        validation.messages = definition.messages.mapValues(\.value)
        return validation
    }

    static func defaultMessage(_ rule: IntentGraph.Validation.Rule, parameter: String) -> String {
        let name = humanize(parameter).lowercased()
        switch rule {
        case .min(let bound): return "The \(name) must be at least \(format(bound))."
        case .max(let bound): return "The \(name) must be at most \(format(bound))."
        case .pattern: return "That is not a valid \(name)."
        case .oneOf(let values):
            return "The \(name) must be one of \(values.map(\.description).joined(separator: ", "))."
        }
    }

    private static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    /// Whether a constant value meets a rule (checked on defaults at compile time).
    static func satisfies(_ value: Value, _ rule: IntentGraph.Validation.Rule) -> Bool {
        let number: Double?
        switch value {
        case .integer(let int): number = Double(int)
        case .number(let double): number = double
        case .duration(let seconds): number = Double(seconds)
        case .string(let text): number = Double(text.count)
        default: number = nil
        }
        switch rule {
        case .min(let bound): return number.map { $0 >= bound } ?? true
        case .max(let bound): return number.map { $0 <= bound } ?? true
        case .pattern(let pattern):
            guard case .string(let text) = value, let regex = try? NSRegularExpression(pattern: "^(?:\(pattern))$")
            else { return true }
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        case .oneOf(let values): return values.contains(value)
        }
    }

    mutating func compileExample(_ definition: ExampleDefinition, app: AppDeclaration, intent: IntentGraph.Intent?)
        -> IntentGraph.Example?
    {
        let language = definition.language?.value ?? app.languages[0]
        if let lang = definition.language, !app.languages.contains(lang.value) {
            diagnostics.error(
                "language '\(lang.value)' is not one of the app's languages (\(app.languages.joined(separator: ", ")))",
                at: lang.range)
        }
        if definition.expectNoMatch {
            return IntentGraph.Example(
                say: definition.say.value, language: language, expectation: .noMatch, location: definition.range)
        }
        var target = intent
        if let name = definition.intent {
            let parts = name.value.split(separator: ".", maxSplits: 1).map(String.init)
            let qualified =
                parts.count == 2
                ? QualifiedName(app: parts[0], name: parts[1]) : QualifiedName(app: app.name, name: name.value)
            target = compileIntent(qualified)
            if target == nil {
                diagnostics.unknown("intent", name.value, at: name.range, known: app.intentDefinitions.keys.sorted())
                return nil
            }
        }
        guard let target else {
            diagnostics.error("an app-level example names its 'intent' or expects no_match", at: definition.range)
            return nil
        }
        var expected: [String: Value] = [:]
        for (name, node) in definition.expect {
            guard let parameter = target.parameter(name.value) else {
                if hasFailed(target.name, name.value) { continue }
                diagnostics.missing(
                    "\'\(target.name.name)\' has no parameter \'\(name.value)\'", name.value, at: name.range,
                    known: target.parameters.map(\.name))
                continue
            }
            // Expected dates may be spoken ("next monday"): kept as text, `intents test` reads them
            // with the sentence's date parser.
            if parameter.type == .date, let text = node.string, node.scalar != nil {
                expected[name.value] = DateValue.parse(text).map(Value.date) ?? .string(text)
            } else if let value = value(node, as: parameter.type, context: "the expected '\(name.value)'") {
                expected[name.value] = value
            }
        }
        return IntentGraph.Example(
            say: definition.say.value, language: language, expectation: .match(target.name, expected),
            location: definition.range)
    }
}
