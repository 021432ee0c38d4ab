import IntentModel
import YAML

extension Diagnostic.Message {
    static let noStepVerb: Self = "a step needs one of: \(DefinitionSchema.stepVerbs.joined(separator: ", "))"
    static func twoStepVerbs(_ a: String, _ b: String) -> Self { "a step has one verb; found both '\(a)' and '\(b)'" }
    static func stepKeyNotFor(_ key: String, _ verb: String) -> Self {
        "'\(key)' does not apply to \(DefinitionSchema.step(verb))"
    }
}

/// Walks YAML nodes into definitions, reporting every shape problem at the node that has it.
struct DefinitionDecoder: SchemaDecoding {
    var diagnostics = DiagnosticCollector()

    mutating func decodeFile(_ root: Node?, path: String, folder: String) -> FileDefinition {
        let start = SourceRange(at: Mark(file: path, line: 1, column: 1))
        var file = FileDefinition(path: path, folder: folder, range: root?.range ?? start)
        guard let root else { return file }
        guard let fields = fields(root, .file, context: "a definition file") else { return file }
        file.app = fields["app"].flatMap { string($0, "'app'") }
        file.description = fields["description"].flatMap { string($0, "'description'") }
        file.synonyms = fields["synonyms"].map { strings($0, "'synonyms'") } ?? []
        file.languages = fields["languages"].map { strings($0, "'languages'") } ?? []
        file.scheme = fields["scheme"].flatMap { string($0, "'scheme'") }
        file.enums = named(fields["enums"], "'enums'") { decoder, name, node in decoder.enumeration(name, node) }
        file.entities = named(fields["entities"], "'entities'") { decoder, name, node in decoder.entity(name, node) }
        file.intents = named(fields["intents"], "'intents'") { decoder, name, node in decoder.intent(name, node) }
        file.shortcuts = list(fields["shortcuts"], "'shortcuts'") { decoder, node in decoder.shortcut(node) }
        file.rules = named(fields["rules"], "'rules'") { decoder, name, node in
            decoder.string(node, "rule '\(name.value)'").map { RuleDefinition(name: name, text: $0) }
        }
        file.constants = named(fields["constants"], "'constants'") { _, name, node in
            ConstantDefinition(name: name, value: node)
        }
        file.examples = list(fields["examples"], "'examples'") { decoder, node in decoder.example(node) }
        file.tips = list(fields["tips"], "'tips'") { decoder, node in decoder.tip(node) }
        file.links = list(fields["links"], "'links'") { decoder, node in decoder.link(node) }
        file.share = list(fields["share"], "'share'") { decoder, node in decoder.shareRoute(node) }
        file.understanding = understanding(fields["understanding"])
        file.widgets = named(fields["widgets"], "'widgets'") { decoder, name, node in decoder.widget(name, node) }
        file.controls = named(fields["controls"], "'controls'") { decoder, name, node in decoder.control(name, node) }
        file.liveActivities = named(fields["activities"], "'activities'") { decoder, name, node in
            decoder.liveActivity(name, node)
        }
        return file
    }

    // MARK: - Declarations

    private mutating func enumeration(_ name: Located<String>, _ node: Node) -> EnumDefinition? {
        guard let fields = fields(node, .enumeration, context: "enum '\(name.value)'") else { return nil }
        guard let casesNode = fields["cases"] else { return nil }
        let cases: [EnumCaseDefinition] = named(casesNode, "the cases of '\(name.value)'") { decoder, id, node in
            if node.isNull { return EnumCaseDefinition(id: id, title: nil, synonyms: []) }
            if node.scalar != nil {
                return EnumCaseDefinition(id: id, title: decoder.string(node, "case '\(id.value)'"), synonyms: [])
            }
            guard let fields = decoder.fields(node, .enumCase, context: "case '\(id.value)'") else { return nil }
            return EnumCaseDefinition(
                id: id,
                title: fields["title"].flatMap { decoder.string($0, "'title'") },
                synonyms: fields["synonyms"].map { decoder.strings($0, "'synonyms'") } ?? [])
        }
        return EnumDefinition(name: name, cases: cases)
    }

    private mutating func entity(_ name: Located<String>, _ node: Node) -> EntityDefinition? {
        guard let fields = fields(node, .entity, context: "entity '\(name.value)'") else { return nil }
        let properties: [PropertyDefinition] = named(fields["properties"], "the properties of '\(name.value)'") {
            decoder, property, node in
            decoder.property(property, node)
        }
        var entity = EntityDefinition(name: name, properties: properties, matchBy: [])
        if let display = fields["display"], let displayFields = self.fields(display, .display, context: "'display'") {
            entity.displayTitle = displayFields["title"].flatMap { string($0, "'title'") }
            entity.displaySubtitle = displayFields["subtitle"].flatMap { string($0, "'subtitle'") }
            entity.displayImage = displayFields["image"].flatMap { string($0, "'image'") }
        }
        entity.matchBy = fields["matchBy"].map { strings($0, "'matchBy'") } ?? []
        entity.suggested = fields["suggested"].flatMap { query($0, context: "'suggested'") }
        let title = fields["title"].flatMap { localized($0, "'title'") }
        entity.title = title?.0
        entity.titles = title?.1 ?? [:]
        entity.article = fields["article"].flatMap { string($0, "'article'") }
        entity.synonyms = fields["synonyms"].map { strings($0, "'synonyms'") } ?? []
        entity.searchable = fields["searchable"].flatMap { searchable($0) }
        return entity
    }

    mutating func property(_ name: Located<String>, _ node: Node) -> PropertyDefinition? {
        if node.scalar != nil {
            guard let type = string(node, "the type of '\(name.value)'") else { return nil }
            return PropertyDefinition(name: name, type: type, optional: false)
        }
        guard let fields = fields(node, .property, context: "property '\(name.value)'") else { return nil }
        guard let type = fields["type"].flatMap({ string($0, "'type'") }) else { return nil }
        return PropertyDefinition(
            name: name, type: type,
            optional: fields["optional"].flatMap { bool($0, "'optional'") } ?? false,
            defaultValue: fields["default"],
            title: fields["title"].flatMap { string($0, "'title'") },
            indexed: fields["indexed"].flatMap { bool($0, "'indexed'") } ?? false)
    }

    private mutating func query(_ node: Node, context: String) -> QueryDefinition? {
        guard let fields = fields(node, .query, context: context) else { return nil }
        return queryParts(fields, range: node.range)
    }

    mutating func queryParts(_ fields: SchemaFields, range: SourceRange) -> QueryDefinition {
        var sort: [Located<String>] = []
        if let sortNode = fields["sort"] {
            sort =
                sortNode.sequence != nil ? strings(sortNode, "'sort'") : string(sortNode, "'sort'").map { [$0] } ?? []
        }
        return QueryDefinition(
            range: range,
            filter: fields["where"].flatMap { string($0, "'where'") },
            sort: sort,
            limit: fields["limit"].flatMap { integer($0, "'limit'") })
    }

    private mutating func intent(_ name: Located<String>, _ node: Node) -> IntentDefinition? {
        guard let fields = fields(node, .intent, context: "intent '\(name.value)'") else { return nil }
        var intent = IntentDefinition(
            name: name,
            title: fields["title"].flatMap { string($0, "'title'") },
            description: fields["description"].flatMap { string($0, "'description'") },
            parameters: named(fields["parameters"], "the parameters of '\(name.value)'") { decoder, parameter, node in
                decoder.parameter(parameter, node)
            },
            summary: [], phrases: [], negativePhrases: [], perform: [], donate: [], examples: [])
        if let summary = fields["summary"] {
            if summary.scalar != nil {
                intent.summary =
                    string(summary, "'summary'").map { [SummaryDefinition(condition: nil, text: $0)] } ?? []
            } else if summary.mapping != nil {
                // summary: { en: …, de: … }
                intent.summary =
                    localized(summary, "'summary'").map { [SummaryDefinition(condition: nil, text: $0.0, texts: $0.1)] }
                    ?? []
            } else {
                intent.summary = list(summary, "'summary'") { decoder, node in decoder.summaryBranch(node) }
            }
        }
        intent.phrases = phrases(fields["phrases"], "'phrases'")
        intent.negativePhrases = phrases(fields["negativePhrases"], "'negativePhrases'")
        intent.perform = list(fields["perform"], "'perform'") { decoder, node in decoder.step(node) }
        if let result = fields["result"], let resultFields = self.fields(result, .result, context: "'result'") {
            intent.resultValue = resultFields["value"].flatMap { string($0, "'value'") }
            if let dialog = resultFields["dialog"].flatMap({ localized($0, "'dialog'") }) {
                (intent.resultDialog, intent.resultDialogs) = (dialog.0, dialog.1)
            }
            intent.opens = resultFields["open"].flatMap { string($0, "'open'") }
        }
        if let confirm = fields["confirm"] {
            if let flag = confirm.bool {
                intent.confirm = .always(Located(flag, at: confirm.range))
            } else if confirm.mapping != nil, let (text, texts) = localized(confirm, "'confirm'") {
                intent.confirm = .dialogs(text, texts)
            } else if let text = string(confirm, "'confirm' (true, false or a question)") {
                intent.confirm = .dialog(text)
            }
        }
        intent.donate = fields["donate"].map { strings($0, "'donate'") } ?? []
        intent.examples = list(fields["examples"], "'examples'") { decoder, node in decoder.example(node) }
        intent.suggest = fields["suggest"].flatMap { node in bool(node, "'suggest'").map { Located($0, at: node.range) }
        }
        intent.activity = fields["activity"].flatMap { activity($0) }
        intent.training = fields["training"].map { strings($0, "'training'") } ?? []
        return intent
    }

    mutating func parameter(_ name: Located<String>, _ node: Node) -> ParameterDefinition? {
        if node.scalar != nil {
            guard let type = string(node, "the type of '\(name.value)'") else { return nil }
            return ParameterDefinition(name: name, type: type, optional: false, validations: [])
        }
        guard let fields = fields(node, .parameter, context: "parameter '\(name.value)'") else { return nil }
        guard let type = fields["type"].flatMap({ string($0, "'type'") }) else { return nil }
        let prompt = fields["prompt"].flatMap { localized($0, "'prompt'") }
        return ParameterDefinition(
            name: name, type: type,
            title: fields["title"].flatMap { string($0, "'title'") },
            prompt: prompt?.0,
            defaultValue: fields["default"],
            optional: fields["optional"].flatMap { bool($0, "'optional'") } ?? false,
            validations: list(fields["validate"], "'validate'") { decoder, node in decoder.validation(node) },
            prompts: prompt?.1 ?? [:], context: fields["context"].flatMap { string($0, "'context'") })
    }

    private mutating func validation(_ node: Node) -> ValidationDefinition? {
        guard let fields = fields(node, .validation, context: "a validation rule") else { return nil }
        let localizedMessage = fields["message"].flatMap { localized($0, "'message'") }
        let message = localizedMessage?.0
        let rules = ["min", "max", "pattern", "oneOf"].filter { fields.contains($0) }
        guard rules.count == 1, let key = rules.first, let value = fields[key] else {
            diagnostics.error(
                rules.isEmpty
                    ? "a validation rule needs one of: min, max, pattern, oneOf"
                    : "one rule per entry; found \(rules.joined(separator: ", "))", at: node.range)
            return nil
        }
        let rule: ValidationDefinition.Rule
        switch key {
        case "min": rule = .min(value)
        case "max": rule = .max(value)
        case "pattern":
            guard let pattern = string(value, "'pattern'") else { return nil }
            rule = .pattern(pattern)
        default:
            guard let items = value.sequence else {
                diagnostics.error(.expected("a list", in: "'oneOf'"), at: value.range)
                return nil
            }
            rule = .oneOf(items)
        }
        return ValidationDefinition(
            rule: rule, message: message, range: node.range, messages: localizedMessage?.1 ?? [:])
    }

    private mutating func summaryBranch(_ node: Node) -> SummaryDefinition? {
        if node.scalar != nil {
            return string(node, "a summary").map { SummaryDefinition(condition: nil, text: $0) }
        }
        guard let fields = fields(node, .summaryBranch, context: "a summary branch") else { return nil }
        guard let (text, texts) = fields["text"].flatMap({ localized($0, "'text'") }) else { return nil }
        return SummaryDefinition(condition: fields["when"].flatMap { string($0, "'when'") }, text: text, texts: texts)
    }

    private mutating func phrases(_ node: Node?, _ context: String) -> [PhraseDefinition] {
        guard let node else { return [] }
        if node.mapping != nil {
            // phrases: { en: [...], de: [...] }
            return named(node, context) { decoder, language, node in
                decoder.strings(node, "'\(language.value)' phrases").map {
                    PhraseDefinition(language: language, text: $0)
                }
            }.flatMap { $0 }
        }
        return list(node, context) { decoder, node in decoder.phrase(node) }
    }

    private mutating func phrase(_ node: Node) -> PhraseDefinition? {
        if node.scalar != nil {
            return string(node, "a phrase").map { PhraseDefinition(language: nil, text: $0) }
        }
        guard let fields = fields(node, .phrase, context: "a phrase") else { return nil }
        guard let text = fields["text"].flatMap({ string($0, "'text'") }) else { return nil }
        var phrase = PhraseDefinition(language: fields["lang"].flatMap { string($0, "'lang'") }, text: text)
        phrase.values = phraseValues(fields["set"])
        return phrase
    }

    private mutating func step(_ node: Node) -> StepDefinition? {
        guard let fields = fields(node, .step, context: "a step") else { return nil }
        let verbs = DefinitionSchema.PerformVerb.allCases.filter { fields.contains($0.rawValue) }
        guard let verb = verbs.first, let verbNode = fields[verb.rawValue] else {
            diagnostics.error(.noStepVerb, at: node.range)
            return nil
        }
        if verbs.count > 1, let second = fields[verbs[1].rawValue] {
            diagnostics.error(.twoStepVerbs(verb.rawValue, verbs[1].rawValue), at: second.range)
        }
        let allowed = verb.keys  // a few keys: a scan, no set built for every step
        for pair in node.mapping ?? [] {
            guard let key = pair.key.string, key != verb.rawValue, !DefinitionSchema.stepVerbs.contains(key),
                !allowed.contains(key)
            else { continue }
            diagnostics.error(.stepKeyNotFor(key, verb.rawValue), at: pair.key.range)
        }

        let kind: StepDefinition.Kind
        var failMessages: [String: Located<String>] = [:]
        switch verb {
        case .bind:
            kind = .bind(values: pairs(verbNode, "'let'"))
        case .call:
            guard let name = string(verbNode, "'call'") else { return nil }
            kind = .call(intent: name, arguments: pairs(fields["with"], "'with'"))
        case .branch:
            guard let condition = string(verbNode, "'if'") else { return nil }
            kind = .branch(
                condition: condition,
                then: list(fields["then"], "'then'") { decoder, node in decoder.step(node) },
                otherwise: list(fields["else"], "'else'") { decoder, node in decoder.step(node) })
        case .startActivity, .updateActivity, .endActivity:
            guard let action = ActivityStepDefinition.Action(rawValue: verb.rawValue),
                let activity = activityStep(action, verbNode, fields, range: node.range)
            else { return nil }
            kind = .activity(activity)
        case .fail where verbNode.mapping != nil:
            guard let (message, messages) = localized(verbNode, "'fail'") else { return nil }
            kind = .fail(message: message)
            failMessages = messages
        case .create, .update, .delete, .open, .fail, .find, .findFirst:
            guard let target = string(verbNode, "'\(verb.rawValue)'") else { return nil }
            switch verb {
            case .create: kind = .create(entity: target)
            case .update: kind = .update(target: target)
            case .delete: kind = .delete(target: target)
            case .open: kind = .open(url: target)
            case .fail: kind = .fail(message: target)
            default:
                kind = .find(entity: target, query: queryParts(fields, range: node.range), first: verb == .findFirst)
            }
        }
        return StepDefinition(
            kind: kind,
            set: pairs(fields["set"], "'set'"),
            increment: pairs(fields["increment"], "'increment'"),
            toggle: fields["toggle"].map { strings($0, "'toggle'") } ?? [],
            binding: fields["as"].flatMap { string($0, "'as'") },
            range: node.range, failMessages: failMessages)
    }

    private mutating func shortcut(_ node: Node) -> ShortcutDefinition? {
        guard let fields = fields(node, .shortcut, context: "an app shortcut") else { return nil }
        guard let intent = fields["intent"].flatMap({ string($0, "'intent'") }) else { return nil }
        return ShortcutDefinition(
            intent: intent,
            phrases: phrases(fields["phrases"], "'phrases'"),
            shortTitle: fields["shortTitle"].flatMap { string($0, "'shortTitle'") },
            image: fields["image"].flatMap { string($0, "'image'") },
            range: node.range)
    }

    private mutating func example(_ node: Node) -> ExampleDefinition? {
        guard let fields = fields(node, .example, context: "an example") else { return nil }
        guard let say = fields["say"].flatMap({ string($0, "'say'") }) else { return nil }
        var example = ExampleDefinition(
            say: say, language: fields["lang"].flatMap { string($0, "'lang'") },
            intent: fields["intent"].flatMap { string($0, "'intent'") },
            expectNoMatch: false, expect: [], range: node.range)
        if let expect = fields["expect"] {
            if let word = expect.string, expect.scalar != nil {
                if word == "no_match" {
                    example.expectNoMatch = true
                } else {
                    diagnostics.error("'expect' takes parameter values or no_match, not '\(word)'", at: expect.range)
                }
            } else {
                example.expect = pairs(expect, "'expect'")
            }
        }
        return example
    }
}
