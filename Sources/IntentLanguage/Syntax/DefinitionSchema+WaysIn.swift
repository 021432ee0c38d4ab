import IntentModel

extension DefinitionSchema {
    /// The objects of `links:`, `share:` and `activity:`.
    static func waysInFields(of object: Object) -> [Field] {
        switch object {
        case .link:
            [
                Field(
                    name: "url", shape: .string,
                    doc: "URL template: scheme://host/path with {slot} segments and ?key={slot} query items.",
                    required: true),
                Field(name: "intent", shape: .string, doc: "The intent the URL runs.", required: true),
            ]
        case .shareRoute:
            [
                Field(
                    name: "accepts", shape: .oneOf([.string, .list(.string)]),
                    doc: "Content kinds: url, text, image, movie, file.", required: true),
                Field(name: "intent", shape: .string, doc: "The intent run for each shared item.", required: true),
                Field(name: "max", shape: .integer, doc: "At most this many items in one share."),
                Field(
                    name: "maxSize", shape: .oneOf([.string, .integer]),
                    doc: "Largest file accepted: bytes, or 500KB, 100MB, 2GB."),
                Field(
                    name: "with", shape: .names(.any),
                    doc:
                        "Parameter values from the item: ${url}, ${text}, ${title}, ${path}, ${name}, ${type}, ${size}, ${kind}."
                ),
            ]
        case .activity:
            [
                Field(name: "type", shape: .string, doc: "The activity's type, e.g. view-radar.", required: true),
                Field(name: "title", shape: .string, doc: "Template over the intent's parameters and results."),
                Field(
                    name: "eligible", shape: .list(.string),
                    doc: "Where it is offered: handoff, search, prediction (default: handoff)."),
                Field(name: "expires", shape: .string, doc: "How long it is offered: a duration (default 8h)."),
                Field(name: "keywords", shape: .list(.string), doc: "Search keywords."),
            ]
        default:
            []
        }
    }
}
