public import YAML

/// A compiled shortcut file: a named, typed workflow over the graph's intents, checked before it runs.
public struct Shortcut: Sendable {
    public let name: String
    public let description: String?
    public let file: String
    public let inputs: [Input]
    public let steps: [Step]
    public let location: SourceRange

    public struct Input: Sendable {
        public let name: String
        public let type: ValueType
        public let defaultValue: Value?
        public let prompt: String?
        public let location: SourceRange

        package init(
            name: String, type: ValueType, defaultValue: Value? = nil, prompt: String? = nil, location: SourceRange
        ) {
            self.name = name
            self.type = type
            self.defaultValue = defaultValue
            self.prompt = prompt
            self.location = location
        }
    }

    public struct Step: Sendable {
        public let kind: Kind
        public let location: SourceRange

        package init(kind: Kind, location: SourceRange) {
            self.kind = kind
            self.location = location
        }
    }

    public indirect enum Kind: Sendable {
        /// A phrase, resolved like typed input. `intent` is what a literal phrase matched when compiled.
        case say(Template, intent: QualifiedName?, binding: String?)
        /// An intent called directly.
        case intent(QualifiedName, arguments: [IntentGraph.Assignment], binding: String?)
        case set([IntentGraph.Assignment])
        /// Expressions keep their source text, for `intents describe`.
        case branch(condition: Expression, source: String, then: [Step], otherwise: [Step])
        /// `repeat: N`; `as:` names the 1-based count.
        case repeatCount(Expression, source: String, binding: String?, body: [Step])
        case repeatEach(Expression, source: String, binding: String, body: [Step])
        /// A menu: one of `options` (a list), chosen by number or text.
        case choose(prompt: Template, options: Expression, source: String, binding: String)
        /// A question answered with a value of `type`.
        case ask(prompt: Template, type: ValueType, binding: String)
        case show(Template)
        /// Stops the run with this as its output.
        case output(Template)
        /// Stops the run, saying why if a message is given.
        case stop(Template?)
        /// Runs another shortcut file (a path relative to this one) with inputs.
        case run(file: String, arguments: [IntentGraph.Assignment], binding: String?)
        /// Starts, updates or ends a live activity, as an intent's step does.
        case activity(IntentGraph.ActivityStep)
    }

    public func input(_ name: String) -> Input? { inputs.first { $0.name == name } }

    package init(
        name: String, description: String? = nil, file: String, inputs: [Input], steps: [Step], location: SourceRange
    ) {
        self.name = name
        self.description = description
        self.file = file
        self.inputs = inputs
        self.steps = steps
        self.location = location
    }
}

/// What compiling a shortcut file gave: the shortcut and every file it runs, or diagnostics.
public struct ShortcutCompilation: Sendable {
    /// The file asked for; nil when any error was found.
    public let shortcut: Shortcut?
    /// Every compiled shortcut by path, the ones `run:` steps call included.
    public let shortcuts: [String: Shortcut]
    public let diagnostics: [Diagnostic]
    public let sources: SourceFiles

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    package init(
        shortcut: Shortcut? = nil, shortcuts: [String: Shortcut], diagnostics: [Diagnostic], sources: SourceFiles
    ) {
        self.shortcut = shortcut
        self.shortcuts = shortcuts
        self.diagnostics = diagnostics
        self.sources = sources
    }
}
