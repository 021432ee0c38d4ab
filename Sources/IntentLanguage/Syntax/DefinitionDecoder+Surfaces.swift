import IntentModel
import YAML

extension DefinitionDecoder {
    mutating func widget(_ name: Located<String>, _ node: Node) -> WidgetDefinition? {
        guard let fields = fields(node, .widget, context: "widget '\(name.value)'") else { return nil }
        var widget = WidgetDefinition(name: name, range: node.range)
        widget.title = fields["title"].flatMap { string($0, "'title'") }
        widget.description = fields["description"].flatMap { string($0, "'description'") }
        widget.image = fields["image"].flatMap { string($0, "'image'") }
        widget.families = fields["families"].map { strings($0, "'families'") } ?? []
        if let timeline = fields["timeline"],
            let timelineFields = self.fields(timeline, .widgetTimeline, context: "'timeline'")
        {
            widget.refresh = timelineFields["refresh"].flatMap { string($0, "'refresh'") }
        }
        widget.relevance = list(fields["relevance"], "'relevance'") { decoder, node in
            guard let rule = decoder.fields(node, .relevanceRule, context: "a relevance rule") else { return nil }
            return RelevanceRuleDefinition(
                condition: rule["when"].flatMap { decoder.string($0, "'when'") },
                score: rule["score"].flatMap { decoder.integer($0, "'score'") }, range: node.range)
        }
        if let content = fields["content"] { widget.content = widgetContent(content) }
        widget.buttons = list(fields["buttons"], "'buttons'") { decoder, node in
            guard let button = decoder.fields(node, .widgetButton, context: "a widget button"),
                let title = button["title"].flatMap({ decoder.string($0, "'title'") }),
                let intent = button["intent"].flatMap({ decoder.string($0, "'intent'") })
            else { return nil }
            let call = IntentCallDefinition(
                intent: intent, arguments: decoder.pairs(button["with"], "'with'"), range: node.range)
            return WidgetButtonDefinition(title: title, action: call, range: node.range)
        }
        widget.parameters = named(fields["parameters"], "the parameters of widget '\(name.value)'") {
            decoder, parameter, node in
            decoder.parameter(parameter, node)
        }
        widget.bindings = pairs(fields["let"], "'let'")
        widget.link = fields["link"].flatMap { string($0, "'link'") }
        return widget
    }

    private mutating func widgetContent(_ node: Node) -> WidgetContentDefinition? {
        guard let fields = fields(node, .widgetContent, context: "'content'") else { return nil }
        var content = WidgetContentDefinition(range: node.range)
        for (key, path) in [
            ("title", \WidgetContentDefinition.title), ("value", \.value), ("label", \.label), ("gauge", \.gauge),
            ("line", \.line), ("detail", \.detail), ("empty", \.empty), ("text", \.text), ("link", \.link),
        ] {
            content[keyPath: path] = fields[key].flatMap { string($0, "'\(key)'") }
        }
        content.figures = list(fields["figures"], "'figures'") { decoder, node in
            guard let figure = decoder.fields(node, .widgetFigure, context: "a figure"),
                let value = figure["value"].flatMap({ decoder.string($0, "'value'") })
            else { return nil }
            return WidgetFigureDefinition(
                value: value, label: figure["label"].flatMap { decoder.string($0, "'label'") }, range: node.range)
        }
        if let items = fields["items"] {
            if items.scalar != nil {
                if let text = string(items, "'items'") {
                    let quoted = [.singleQuoted, .doubleQuoted].contains(items.scalar?.style)
                    (content.itemsEntity, content.items) = itemsQuery(text, quoted: quoted)
                }
            } else if let itemFields = self.fields(items, .widgetItems, context: "'items'") {
                content.itemsEntity = itemFields["from"].flatMap { string($0, "'from'") }
                content.items = queryParts(itemFields, range: items.range)
            }
        }
        return content
    }

    /// `Task where !isCompleted sort urgency, -createdAt limit 3`: the entity, then `where`, `sort` and
    /// `limit` clauses (keywords outside quotes and brackets), each part keeping its place in the file.
    private mutating func itemsQuery(_ text: Located<String>, quoted: Bool) -> (Located<String>?, QueryDefinition?) {
        let clauses = QueryClauses.split(text.value)
        guard let entity = clauses.entity else {
            diagnostics.error("expected an entity name first, as in 'Task where …'", at: text.range)
            return (nil, nil)
        }
        func part(_ piece: QueryClauses.Piece) -> Located<String> {
            let start = text.range.start
            guard start.line == text.range.end.line else { return Located(piece.text, at: text.range) }
            let column = start.column + (quoted ? 1 : 0) + piece.offset
            let begin = Mark(file: start.file, line: start.line, column: column)
            let end = Mark(file: start.file, line: start.line, column: column + max(piece.text.unicodeScalars.count, 1))
            return Located(piece.text, at: SourceRange(start: begin, end: end))
        }
        var query = QueryDefinition(range: text.range, filter: nil, sort: [], limit: nil)
        for problem in clauses.problems {
            diagnostics.error(Diagnostic.Message(problem.message), at: part(problem).range)
        }
        query.filter = clauses.filter.map(part)
        query.sort = clauses.sort.map(part)
        if let limit = clauses.limit {
            if let number = Int(limit.text) {
                query.limit = Located(number, at: part(limit).range)
            } else {
                diagnostics.error(.expected("a whole number", in: "'limit'"), at: part(limit).range)
            }
        }
        return (part(entity), query)
    }

    mutating func control(_ name: Located<String>, _ node: Node) -> ControlDefinition? {
        guard let fields = fields(node, .control, context: "control '\(name.value)'") else { return nil }
        var control = ControlDefinition(name: name, range: node.range)
        control.title = fields["title"].flatMap { string($0, "'title'") }
        control.image = fields["image"].flatMap { string($0, "'image'") }
        control.state = fields["state"].flatMap { string($0, "'state'") }
        control.on = fields["turnOn"].flatMap { intentCall($0, "'turnOn'") }
        control.off = fields["turnOff"].flatMap { intentCall($0, "'turnOff'") }
        control.action = fields["action"].flatMap { intentCall($0, "'action'") }
        return control
    }

    private mutating func intentCall(_ node: Node, _ context: String) -> IntentCallDefinition? {
        guard let fields = fields(node, .intentCall, context: context),
            let intent = fields["intent"].flatMap({ string($0, "'intent'") })
        else { return nil }
        return IntentCallDefinition(intent: intent, arguments: pairs(fields["with"], "'with'"), range: node.range)
    }
}
