import IntentModel

/// `describe --json`: an intent, app, entity or enum as one object with its `kind`.
enum DescribeReport {
    static func intent(_ intent: IntentGraph.Intent) -> JSONValue {
        [
            "kind": "intent", "name": .string(intent.name.description), "app": .string(intent.name.app),
            "title": .string(intent.title), "description": intent.description.map(JSONValue.string) ?? .null,
            "parameters": .array(
                intent.parameters.map { parameter in
                    JSONValue.object([
                        "name": .string(parameter.name), "type": .string(parameter.type.description),
                        "optional": .bool(parameter.isOptional), "required": .bool(parameter.isRequired),
                        "default": parameter.defaultValue.map { .string($0.description) } ?? .null,
                        "prompt": parameter.prompt.map(JSONValue.string) ?? .null,
                    ]).withContext(of: parameter)
                }),
            "summary": .array(intent.summary.map { .string($0.text.source) }),
            "phrases": .array(
                intent.phrases.map(phrase)),
            "result": intent.resultType.map { .string($0.description) } ?? .null,
            "confirm": .bool(intent.confirmation != nil || intent.deletes),
        ]
    }

    static func item(_ item: IntentGraph.Describable) -> JSONValue {
        switch item {
        case .app(let app):
            return [
                "kind": "app", "name": .string(app.name), "description": app.description.map(JSONValue.string) ?? .null,
                "synonyms": .array(app.synonyms.map(JSONValue.string)),
                "languages": .array(app.languages.map(JSONValue.string)),
                "intents": .array(app.intents.map { .string($0.name.description) }),
                "entities": .array(app.entities.map { .string($0.name.description) }),
                "enums": .array(app.enums.map { .string($0.name.description) }),
            ]
        case .entity(let entity):
            return [
                "kind": "entity", "name": .string(entity.name.description),
                "properties": .array(
                    entity.properties.map { property in
                        [
                            "name": .string(property.name), "type": .string(property.type.description),
                            "optional": .bool(property.isOptional), "builtin": .bool(property.isBuiltin),
                            "default": property.defaultValue.map { .string($0.description) } ?? .null,
                        ]
                    }),
                "matchBy": .array(entity.matchBy.map(JSONValue.string)),
            ]
        case .enumeration(let enumeration):
            return [
                "kind": "enum", "name": .string(enumeration.name.description),
                "cases": .array(
                    enumeration.cases.map { item in
                        [
                            "id": .string(item.id), "title": .string(item.title),
                            "synonyms": .array(item.synonyms.map(JSONValue.string)),
                        ]
                    }),
            ]
        }
    }
}

extension DescribeReport {
    /// A phrase with the values it sets, when it sets any.
    static func phrase(_ phrase: IntentGraph.Phrase) -> JSONValue {
        var object: [String: JSONValue] = ["lang": .string(phrase.language), "text": .string(phrase.template.source)]
        if !phrase.values.isEmpty { object["set"] = .object(phrase.values.mapValues { .string($0.description) }) }
        return .object(object)
    }
}

extension JSONValue {
    /// A parameter's object with its `context:` name, when it has one.
    fileprivate func withContext(of parameter: IntentGraph.Parameter) -> JSONValue {
        guard case .object(var object) = self, let context = parameter.context else { return self }
        object["context"] = .string(context)
        return .object(object)
    }
}
