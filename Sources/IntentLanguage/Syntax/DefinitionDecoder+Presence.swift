import IntentModel
import YAML

extension DefinitionDecoder {
    mutating func searchable(_ node: Node) -> SearchableDefinition? {
        guard let fields = fields(node, .searchable, context: "'searchable'") else { return nil }
        guard let title = fields["title"].flatMap({ string($0, "'title'") }) else { return nil }
        return SearchableDefinition(
            title: title,
            description: fields["description"].flatMap { string($0, "'description'") },
            keywords: fields["keywords"].flatMap { string($0, "'keywords'") },
            filter: fields["where"].flatMap { string($0, "'where'") },
            expires: fields["expires"].flatMap { string($0, "'expires'") },
            range: node.range)
    }

    mutating func tip(_ node: Node) -> TipDefinition? {
        guard let fields = fields(node, .tip, context: "a tip") else { return nil }
        guard let intent = fields["intent"].flatMap({ string($0, "'intent'") }) else { return nil }
        return TipDefinition(
            intent: intent,
            condition: fields["when"].flatMap { string($0, "'when'") },
            placement: fields["placement"].flatMap { string($0, "'placement'") },
            phrase: fields["phrase"].flatMap { string($0, "'phrase'") },
            language: fields["lang"].flatMap { string($0, "'lang'") },
            range: node.range)
    }
}
