extension IntentGraph {
    /// Something `intents describe NAME` can describe besides an intent.
    public enum Describable: Sendable {
        case app(App)
        case entity(Entity)
        case enumeration(Enumeration)

        /// `app`, `entity`, `enum`.
        public var kind: String {
            switch self {
            case .app: "app"
            case .entity: "entity"
            case .enumeration: "enum"
            }
        }
    }

    /// Apps, entities and enums called `name` (`App.Name` for the latter two), case-insensitive.
    public func describables(named name: String) -> [Describable] {
        let folded = name.lowercased()
        func matches(_ qualified: QualifiedName) -> Bool {
            name.contains(".") ? qualified.description.lowercased() == folded : qualified.name.lowercased() == folded
        }
        var found: [Describable] = []
        if let app = app(named: name) { found.append(.app(app)) }
        found += entities.filter { matches($0.name) }.map(Describable.entity)
        found += enums.filter { matches($0.name) }.map(Describable.enumeration)
        return found
    }

    /// The first sentence a template produces, with the app's name and slot names filled in.
    public static func speak(_ template: PhraseTemplate, appName: String, rules: [String: PhraseTemplate]) -> String {
        guard let sentence = template.expansions(rules: rules, limit: 4096)?.first else { return template.source }
        let words = sentence.map { piece -> String in
            switch piece {
            case .word(let word): word
            case .app: appName
            case .slot(let name): "<\(name)>"
            }
        }
        guard var text = words.first else { return "" }
        text = text.prefix(1).uppercased() + text.dropFirst()
        return ([text] + words.dropFirst()).joined(separator: " ")
    }
}
