import IntentModel
import YAML

extension DefinitionDecoder {
    mutating func link(_ node: Node) -> LinkDefinition? {
        guard let fields = fields(node, .link, context: "a link") else { return nil }
        guard let url = fields["url"].flatMap({ string($0, "'url'") }),
            let intent = fields["intent"].flatMap({ string($0, "'intent'") })
        else { return nil }
        return LinkDefinition(url: url, intent: intent, range: node.range)
    }

    mutating func shareRoute(_ node: Node) -> ShareRouteDefinition? {
        guard let fields = fields(node, .shareRoute, context: "a share route") else { return nil }
        guard let acceptsNode = fields["accepts"], let intent = fields["intent"].flatMap({ string($0, "'intent'") })
        else { return nil }
        let accepts = strings(acceptsNode, "'accepts'")
        var maxSize: Located<String>?
        if let sizeNode = fields["maxSize"] { maxSize = string(sizeNode, "'maxSize'") }
        return ShareRouteDefinition(
            accepts: accepts, intent: intent, max: fields["max"].flatMap { integer($0, "'max'") }, maxSize: maxSize,
            with: pairs(fields["with"], "'with'"), range: node.range)
    }

    mutating func activity(_ node: Node) -> ActivityDefinition? {
        guard let fields = fields(node, .activity, context: "'activity'") else { return nil }
        guard let type = fields["type"].flatMap({ string($0, "'type'") }) else { return nil }
        return ActivityDefinition(
            type: type, title: fields["title"].flatMap { string($0, "'title'") },
            eligible: fields["eligible"].map { strings($0, "'eligible'") } ?? [],
            expires: fields["expires"].flatMap { string($0, "'expires'") },
            keywords: fields["keywords"].map { strings($0, "'keywords'") } ?? [], range: node.range)
    }
}
