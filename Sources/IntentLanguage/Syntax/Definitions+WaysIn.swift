public import IntentModel
public import YAML

/// `links:` — a URL template and the intent it runs.
public struct LinkDefinition: Sendable {
    public var url: Located<String>
    public var intent: Located<String>
    public var range: SourceRange
}

/// `share:` — what an app accepts and the intent it runs for each item.
public struct ShareRouteDefinition: Sendable {
    public var accepts: [Located<String>]
    public var intent: Located<String>
    public var max: Located<Int>?
    /// As written: bytes, or `100MB`.
    public var maxSize: Located<String>?
    public var with: [(Located<String>, Node)]
    public var range: SourceRange
}

/// `activity:` on an intent.
public struct ActivityDefinition: Sendable {
    public var type: Located<String>
    public var title: Located<String>?
    public var eligible: [Located<String>]
    public var expires: Located<String>?
    public var keywords: [Located<String>]
    public var range: SourceRange
}
