public import IntentModel
public import ModelStore

/// A widget with the values chosen for its parameters: one that is not configurable, one added to
/// the Smart Stack (`intents widget add NAME --set k=v`), or a preview of a configuration.
public struct WidgetInstance: Sendable {
    public let widget: IntentGraph.Widget
    /// The added widget's number; nil for a widget that is not configurable, or a preview.
    public let id: Int64?
    /// The family it was added in; nil: any of the widget's.
    public let family: IntentGraph.WidgetFamily?
    /// Parameter → value as the store keeps it (an entity by its id).
    public let parameters: [String: JSONValue]

    public init(
        _ widget: IntentGraph.Widget, id: Int64? = nil, family: IntentGraph.WidgetFamily? = nil,
        parameters: [String: JSONValue] = [:]
    ) {
        self.widget = widget
        self.id = id
        self.family = family
        self.parameters = parameters
    }

    /// The widget as it was added.
    public init(_ widget: IntentGraph.Widget, _ stored: StoredWidgetInstance) {
        self.init(
            widget, id: stored.id, family: stored.family.flatMap(IntentGraph.WidgetFamily.init(rawValue:)),
            parameters: stored.parameters)
    }

    /// The families it is drawn in: the one it was added in, else every family of the widget.
    public var families: [IntentGraph.WidgetFamily] { family.map { [$0] } ?? widget.families }

    /// A parameter's value: the one chosen, else its default, else nil. An entity chosen and since
    /// deleted is nil, as a widget shows a placeholder for it.
    func datum(_ parameter: IntentGraph.Parameter, evaluator: Evaluator) throws(RuntimeError) -> Datum {
        if let json = parameters[parameter.name], json != .null {
            if let entity = parameter.type.entityName {
                guard case .string(let id) = json, let store = evaluator.store else { return .null }
                do {
                    return try store.record(entity, id: id).map(Datum.entity) ?? .null
                } catch {
                    throw .store("\(error)")
                }
            }
            return LiveActivityValues.datum(json, as: parameter.type)
        }
        return parameter.defaultValue.map { evaluator.values.datum($0, as: parameter.type) } ?? .null
    }
}

/// Why `--set` values do not configure a widget; the message says it to people.
public struct WidgetConfigurationError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

extension WidgetCenter {
    /// The values `settings` (`name=value` as typed) choose for `widget`'s parameters, checked as a
    /// deep link's are: each names a parameter, has its type (an enum case by id, title or synonym; an
    /// entity by id or exactly its name) and passes its rules; every required parameter is given.
    public func configure(
        _ widget: IntentGraph.Widget, settings: [(name: String, value: String)], router: LinkRouter
    ) -> Result<[String: JSONValue], WidgetConfigurationError> {
        func failure(_ message: String) -> Result<[String: JSONValue], WidgetConfigurationError> {
            .failure(WidgetConfigurationError(message: message))
        }
        if !widget.isConfigurable, let first = settings.first {
            return failure("\(widget.title) has nothing to configure; '--set \(first.name)=…' does not apply")
        }
        var chosen: [String: JSONValue] = [:]
        for (name, text) in settings {
            guard let parameter = widget.parameter(name) else {
                let names = widget.parameters.map(\.name)
                let hint =
                    EditDistance.closest(to: name, in: names).map { "; did you mean '\($0)'?" }
                    ?? "; it has \(names.map { "'\($0)'" }.joined(separator: ", "))"
                return failure("\(widget.title) has no parameter '\(name)'\(hint)")
            }
            if chosen[name] != nil { return failure("'\(name)' is set twice") }
            if let problem = ControlCharacters.problem(in: text, what: "the value of '\(name)'") {
                return failure(problem)
            }
            let value: Value
            do throws(LinkError) {
                value = try router.typed(text, parameter)
            } catch {
                return failure(error.message)
            }
            if let entity = parameter.type.entityName {
                switch LinkRouter.record(named: text, entity: entity, store: store) {
                case .success(.entity(let record)): chosen[name] = .string(record.id)
                case .success:
                    return failure(
                        "several \(entity.name.lowercased())s are named “\(text)”: set '\(name)' to one's id")
                case .failure(let error): return failure(error.message)
                }
                continue
            }
            let evaluator = Evaluator(graph: graph, clock: store.clock, app: widget.app, store: nil)
            let datum = evaluator.values.datum(value, as: parameter.type)
            if let violation = ParameterValidator(evaluator: evaluator).violation(of: datum, for: parameter) {
                return failure("'\(name)': \(violation)")
            }
            chosen[name] = LiveActivityValues.json(datum)
        }
        let missing = widget.parameters.filter { $0.isRequired && chosen[$0.name] == nil }
        if !missing.isEmpty {
            let sets = missing.map { "--set \($0.name)=…" }.joined(separator: " ")
            let what = missing.map { "'\($0.name)' (\($0.title))" }.joined(separator: ", ")
            return failure("\(widget.title) needs \(what): add \(sets)")
        }
        return .success(chosen)
    }

}
