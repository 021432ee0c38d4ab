import IntentModel

extension TypeEnvironment {
    /// Every entity's property types (built-ins included) and every enum's cases, from a graph.
    init(graph: IntentGraph) {
        self.init()
        for entity in graph.entities {
            var types: [String: ValueType] = [:]
            for builtin in IntentGraph.BuiltinProperty.allCases { types[builtin.rawValue] = builtin.type }
            for property in entity.properties { types[property.name] = property.type }
            entities[entity.name] = types
        }
        for enumeration in graph.enums { enums[enumeration.name] = enumeration.cases.map(\.id) }
    }
}
