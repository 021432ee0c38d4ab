import IntentModel
import YAML

extension Compiler {
    mutating func compileEntities(app: String) {
        let definitions = apps[app]!.entityDefinitions
        // Property types first, so entities may refer to each other.
        var compiledProperties: [String: [IntentGraph.Property]] = [:]
        for name in definitions.keys.sorted() {
            let properties = compileProperties(definitions[name]!, app: app)
            compiledProperties[name] = properties
            var types: [String: ValueType] = [:]
            for property in properties { types[property.name] = property.type }
            environment.entities[QualifiedName(app: app, name: name)] = types
        }
        for name in definitions.keys.sorted() {
            let definition = definitions[name]!
            let qualified = QualifiedName(app: app, name: name)
            let properties = compiledProperties[name]!
            let scope = constantScope(app: app).merging(environment.entities[qualified]!) { _, property in property }

            var matchBy: [String] = []
            for property in definition.matchBy {
                guard let type = environment.entities[qualified]?[property.value] else {
                    diagnostics.unknown("property", property.value, at: property.range, known: properties.map(\.name))
                    continue
                }
                if type != .string {
                    diagnostics.error(
                        "'matchBy' needs string properties; '\(property.value)' is \(type)", at: property.range)
                    continue
                }
                matchBy.append(property.value)
            }
            let firstString = properties.first { $0.type == .string && !$0.isBuiltin }?.name
            if definition.matchBy.isEmpty, let firstString { matchBy = [firstString] }

            let defaultTitle =
                ["title", "name", "topic", "text"].first { environment.entities[qualified]?[$0] == .string }
                ?? firstString ?? "id"
            let titleSource = definition.displayTitle ?? Located("${\(defaultTitle)}", at: definition.name.range)
            let title =
                checkTemplate(titleSource, scope: scope, app: app)?.0 ?? Template(parts: [.text(name)], source: name)
            let subtitle = definition.displaySubtitle.flatMap { checkTemplate($0, scope: scope, app: app)?.0 }
            let suggested = definition.suggested.flatMap {
                compileQuery($0, entity: qualified, outer: constantScope(app: app), app: app)
            }

            let searchable = definition.searchable.flatMap { compileSearchable($0, scope: scope, app: app) }

            entities[qualified] = IntentGraph.Entity(
                name: qualified, properties: properties, displayTitle: title, displaySubtitle: subtitle,
                displayImage: definition.displayImage?.value, matchBy: matchBy, suggested: suggested,
                location: definition.name.range, searchable: searchable)
            entities[qualified]?.title = definition.title?.value
            entities[qualified]?.titles = definition.titles.mapValues(\.value)
            entities[qualified]?.synonyms = definition.synonyms.map(\.value)
            if let article = definition.article {
                if ["a", "an"].contains(article.value) {
                    entities[qualified]?.article = article.value
                } else {
                    diagnostics.error("'article' is 'a' or 'an', not '\(article.value)'", at: article.range)
                }
            }
        }
    }

    private mutating func compileProperties(_ definition: EntityDefinition, app: String) -> [IntentGraph.Property] {
        var properties: [IntentGraph.Property] = []
        var seen: Set<String> = []
        for property in definition.properties {
            let name = property.name.value
            if !Self.isIdentifier(name) {
                diagnostics.error(
                    "'\(name)' is not a valid property name: use letters, digits and '_'", at: property.name.range)
                continue
            }
            guard let (type, optionalMark) = resolveType(property.type, app: app) else {
                failedMembers.insert("\(app).\(definition.name.value).\(name)")
                continue
            }
            let builtin = IntentGraph.BuiltinProperty(rawValue: name)
            if builtin == .id {
                diagnostics.error("'id' is given to every entity by the store", at: property.name.range)
                continue
            }
            if let builtin, type != builtin.type {
                diagnostics.error(
                    "'\(name)' is kept by the store as a \(builtin.type), not \(type)", at: property.type.range)
                continue
            }
            var defaultValue: Value?
            if let node = property.defaultValue {
                if case .entity = type {
                    diagnostics.error("an entity property cannot have a default", at: node.range)
                } else if !node.isNull {
                    defaultValue = value(node, as: type, context: "the default of '\(name)'")
                }
            }
            seen.insert(name)
            properties.append(
                IntentGraph.Property(
                    name: name, type: type,
                    isOptional: property.optional || optionalMark || (property.defaultValue?.isNull ?? false),
                    defaultValue: defaultValue, isBuiltin: builtin != nil, location: property.name.range,
                    isIndexed: property.indexed))
        }
        for builtin in IntentGraph.BuiltinProperty.allCases where !seen.contains(builtin.rawValue) {
            properties.append(
                IntentGraph.Property(
                    name: builtin.rawValue, type: builtin.type, isOptional: false, defaultValue: nil, isBuiltin: true,
                    location: definition.name.range))
        }
        return properties
    }

    /// Checks a query's filter in the entity's scope and its sort keys against its properties.
    mutating func compileQuery(
        _ definition: QueryDefinition, entity: QualifiedName, outer: ExpressionChecker.Scope, app: String
    ) -> IntentGraph.Query? {
        let properties = environment.entities[entity] ?? [:]
        let scope = outer.merging(properties) { _, property in property }
        var filter: Expression?
        if let source = definition.filter {
            filter = checkExpression(source, scope: scope, app: app, condition: true)?.0
        }
        var sort: [IntentGraph.SortKey] = []
        for key in definition.sort {
            let descending = key.value.hasPrefix("-")
            let name =
                descending
                ? String(key.value.dropFirst()) : key.value.hasPrefix("+") ? String(key.value.dropFirst()) : key.value
            guard let type = properties[name] else {
                if hasFailed(entity, name) { continue }
                diagnostics.missing(
                    .noProperty(entity.name, name), name, at: key.range, known: properties.keys.sorted())
                continue
            }
            if !type.isOrdered && type != .boolean && type.enumName == nil {
                diagnostics.error("cannot sort by '\(name)': \(type) has no order", at: key.range)
            }
            sort.append(IntentGraph.SortKey(property: name, descending: descending))
        }
        if let limit = definition.limit, limit.value < 1 {
            diagnostics.error("'limit' must be at least 1", at: limit.range)
        }
        return IntentGraph.Query(entity: entity, filter: filter, sort: sort, limit: definition.limit?.value)
    }
}
