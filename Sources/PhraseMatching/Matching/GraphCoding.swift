import Foundation
import IntentModel
import YAML

/// The checked graph and the definitions' diagnostics as bytes, for the compiled cache
/// (`CompiledCache`): written and read by hand, field by field, one function per type, no generic
/// code and no `Codable` (whose decoding cost more than compiling the YAML again: BENCHMARKS.md,
/// issue 25). Strings go through `TableWriter`'s table (file paths, names and words recur all
/// through the graph); integers are little-endian, `Int` as 8 bytes, `Double` by its bits, an
/// optional or a case as one tag byte before its fields.
///
/// Reading trusts nothing: every count is checked against the bytes left, every tag and raw value
/// against the ones that exist, nesting against a bound; anything else throws `GraphCoding.Damaged`
/// (the caller compiles the definitions again), never a trap. What the fields mean is the
/// compiler's: change a type here and in `CompiledCache.formatVersion` together.
///
/// Dictionaries are made with `Dictionary(minimumCapacity:)`, never `reserveCapacity` (not specialized:
/// it looks the storage metadata up on every call), and only when they hold something.
enum GraphCoding {
    struct Damaged: Error {}

    /// Nesting deeper than this (expressions, steps, phrase items, values) is a damaged file: the
    /// compiler never makes it (expressions nest at most about 500 deep), and reading it is recursive.
    static let maximumDepth = 1_024

    static func encode(_ graph: IntentGraph, diagnostics: [Diagnostic]) -> [UInt8] {
        var writer = GraphWriter()
        writer.count(graph.apps.count)
        for app in graph.apps { writer.app(app) }
        writer.count(diagnostics.count)
        for diagnostic in diagnostics { writer.diagnostic(diagnostic) }
        var file = ByteWriter()
        file.put(UInt64(writer.base.table.count))
        for text in writer.base.table { file.put(text) }
        file.bytes.append(contentsOf: writer.base.body.bytes)
        return file.bytes
    }

    /// The graph and warnings in `bytes[range]` (all of `bytes` when nil).
    static func decode(_ bytes: [UInt8], range: Range<Int>? = nil) throws(Damaged) -> (
        graph: IntentGraph, diagnostics: [Diagnostic]
    ) {
        let range = range ?? bytes.indices
        var header = ByteReader(bytes: bytes, position: range.lowerBound, end: range.upperBound)
        guard let textCount = header.count(elementSize: 8) else { throw Damaged() }
        var table: [String] = []
        table.reserveCapacity(textCount)
        for _ in 0..<textCount {
            guard let text = header.string() else { throw Damaged() }
            table.append(text)
        }
        var reader = GraphReader(base: TableReader(reader: header, table: table))
        let appCount = try reader.count()
        var apps: [IntentGraph.App] = []
        apps.reserveCapacity(appCount)
        for _ in 0..<appCount { apps.append(try reader.app()) }
        let diagnosticCount = try reader.count()
        var diagnostics: [Diagnostic] = []
        diagnostics.reserveCapacity(diagnosticCount)
        for _ in 0..<diagnosticCount { diagnostics.append(try reader.diagnostic()) }
        guard reader.base.isAtEnd else { throw Damaged() }
        return (IntentGraph(apps: apps), diagnostics)
    }
}

// MARK: - Writing

struct GraphWriter {
    var base = TableWriter()
    /// Alternatives and optional parts of phrase templates written so far, by their number in
    /// order of completion: one written again is that number (`[the|my]` recurs all over a set).
    private var composites: [PhraseTemplate.Item: Int] = [:]

    mutating func count(_ count: Int) { base.put(UInt32(count)) }
    mutating func string(_ text: String) { base.put(text) }
    mutating func int(_ value: Int) { base.put(Int64(value)) }
    mutating func bool(_ value: Bool) { base.put(UInt8(value ? 1 : 0)) }
    mutating func tag(_ value: UInt8) { base.put(value) }
    mutating func double(_ value: Double) { base.put(value.bitPattern) }

    mutating func strings(_ texts: [String]) {
        count(texts.count)
        for text in texts { string(text) }
    }

    mutating func string(_ text: String?) {
        guard let text else { return tag(0) }
        tag(1)
        string(text)
    }

    mutating func int(_ value: Int?) {
        guard let value else { return tag(0) }
        tag(1)
        int(value)
    }

    mutating func double(_ value: Double?) {
        guard let value else { return tag(0) }
        tag(1)
        double(value)
    }

    mutating func stringMap(_ map: [String: String]) {
        count(map.count)
        for (key, value) in map {
            string(key)
            string(value)
        }
    }

    mutating func name(_ name: QualifiedName) {
        string(name.app)
        string(name.name)
    }

    mutating func mark(_ mark: Mark) {
        string(mark.file)
        int(mark.line)
        int(mark.column)
    }

    mutating func range(_ range: SourceRange) {
        mark(range.start)
        mark(range.end)
    }

    mutating func range(_ range: SourceRange?) {
        guard let range else { return tag(0) }
        tag(1)
        self.range(range)
    }

    mutating func valueType(_ type: ValueType) { base.put(type) }

    mutating func valueType(_ type: ValueType?) {
        guard let type else { return tag(0) }
        tag(1)
        valueType(type)
    }

    mutating func value(_ value: Value) {
        switch value {
        case .string(let text):
            tag(0)
            string(text)
        case .integer(let number):
            tag(1)
            int(number)
        case .number(let number):
            tag(2)
            double(number)
        case .boolean(let flag):
            tag(3)
            bool(flag)
        case .date(let date):
            tag(4)
            self.date(date)
        case .duration(let seconds):
            tag(5)
            int(seconds)
        case .url(let text):
            tag(6)
            string(text)
        case .enumCase(let id):
            tag(7)
            string(id)
        case .array(let items):
            tag(8)
            count(items.count)
            for item in items { self.value(item) }
        }
    }

    mutating func value(_ value: Value?) {
        guard let value else { return tag(0) }
        tag(1)
        self.value(value)
    }

    mutating func values(_ map: [String: Value]) {
        count(map.count)
        for (key, item) in map {
            string(key)
            value(item)
        }
    }

    mutating func date(_ date: DateValue) {
        switch date {
        case .moment(let moment):
            tag(0)
            double(moment.timeIntervalSinceReferenceDate)
        case .now:
            tag(1)
        case .relative(let days, let time):
            tag(2)
            int(days)
            self.time(time)
        case .local(let year, let month, let day, let time):
            tag(3)
            int(year)
            int(month)
            int(day)
            self.time(time)
        }
    }

    mutating func time(_ time: TimeOfDay?) {
        guard let time else { return tag(0) }
        tag(1)
        int(time.hour)
        int(time.minute)
        int(time.second)
    }

    mutating func expression(_ expression: IntentModel.Expression) {
        int(expression.span.lowerBound)
        int(expression.span.upperBound)
        switch expression.kind {
        case .literal(let literal):
            tag(0)
            value(literal)
        case .null:
            tag(1)
        case .name(let name):
            tag(2)
            string(name)
        case .implicitCase(let name):
            tag(3)
            string(name)
        case .enumCase(let type, let name):
            tag(4)
            self.name(type)
            string(name)
        case .member(let base, let name):
            tag(5)
            self.expression(base)
            string(name)
        case .unary(let operation, let operand):
            tag(6)
            string(operation.rawValue)
            self.expression(operand)
        case .binary(let operation, let left, let right):
            tag(7)
            string(operation.rawValue)
            self.expression(left)
            self.expression(right)
        case .conditional(let condition, let then, let otherwise):
            tag(8)
            self.expression(condition)
            self.expression(then)
            self.expression(otherwise)
        case .call(let function, let arguments):
            tag(9)
            string(function)
            expressions(arguments)
        case .query(let entity, let filter):
            tag(10)
            string(entity)
            self.expression(filter)
        case .list(let items):
            tag(11)
            expressions(items)
        }
    }

    mutating func expression(_ expression: IntentModel.Expression?) {
        guard let expression else { return tag(0) }
        tag(1)
        self.expression(expression)
    }

    mutating func expressions(_ expressions: [IntentModel.Expression]) {
        count(expressions.count)
        for expression in expressions { self.expression(expression) }
    }

    mutating func template(_ template: Template) {
        string(template.source)
        count(template.parts.count)
        for part in template.parts {
            switch part {
            case .text(let text):
                tag(0)
                string(text)
            case .expression(let expression, let source):
                tag(1)
                self.expression(expression)
                string(source)
            }
        }
        count(template.byLanguage.count)
        for (language, localized) in template.byLanguage {
            string(language)
            self.template(localized)
        }
    }

    mutating func template(_ template: Template?) {
        guard let template else { return tag(0) }
        tag(1)
        self.template(template)
    }

    mutating func templates<Key>(_ map: [Key: Template], key: (Key) -> String) {
        count(map.count)
        for (name, template) in map {
            string(key(name))
            self.template(template)
        }
    }

    mutating func phraseTemplate(_ template: PhraseTemplate) {
        string(template.source)
        items(template.items)
    }

    mutating func items(_ items: [PhraseTemplate.Item]) {
        count(items.count)
        for item in items {
            switch item {
            case .word(let word):
                tag(0)
                string(word)
            case .slot(let name, let offset):
                tag(1)
                string(name)
                int(offset)
            case .app:
                tag(2)
            case .rule(let name, let offset):
                tag(3)
                string(name)
                int(offset)
            case .alternatives(let branches), .optional(let branches):
                if let number = composites[item] {
                    tag(6)
                    base.put(UInt32(number))
                    continue
                }
                if case .alternatives = item { tag(4) } else { tag(5) }
                count(branches.count)
                for branch in branches { self.items(branch) }
                composites[item] = composites.count
            }
        }
    }

    mutating func query(_ query: IntentGraph.Query) {
        name(query.entity)
        expression(query.filter)
        count(query.sort.count)
        for key in query.sort {
            string(key.property)
            bool(key.descending)
        }
        int(query.limit)
    }

    mutating func query(_ query: IntentGraph.Query?) {
        guard let query else { return tag(0) }
        tag(1)
        self.query(query)
    }

    mutating func assignments(_ assignments: [IntentGraph.Assignment]) {
        count(assignments.count)
        for assignment in assignments {
            string(assignment.name)
            template(assignment.value)
        }
    }

    mutating func call(_ call: IntentGraph.IntentCall) {
        name(call.intent)
        assignments(call.arguments)
    }

    mutating func steps(_ steps: [IntentGraph.Step]) {
        count(steps.count)
        for step in steps { self.step(step) }
    }

    mutating func step(_ step: IntentGraph.Step) {
        switch step {
        case .create(let entity, let set, let binding):
            tag(0)
            name(entity)
            assignments(set)
            string(binding)
        case .update(let target, let set, let increment, let toggle, let binding):
            tag(1)
            expression(target)
            assignments(set)
            assignments(increment)
            strings(toggle)
            string(binding)
        case .delete(let target):
            tag(2)
            expression(target)
        case .find(let query, let first, let binding):
            tag(3)
            self.query(query)
            bool(first)
            string(binding)
        case .bind(let assignments):
            tag(4)
            self.assignments(assignments)
        case .call(let intent, let arguments, let binding):
            tag(5)
            name(intent)
            assignments(arguments)
            string(binding)
        case .open(let url):
            tag(6)
            template(url)
        case .branch(let condition, let then, let otherwise):
            tag(7)
            expression(condition)
            steps(then)
            steps(otherwise)
        case .fail(let message):
            tag(8)
            template(message)
        case .activity(let activity):
            tag(9)
            string(activity.action.rawValue)
            name(activity.activity)
            assignments(activity.arguments)
            template(activity.id)
            switch activity.dismissal {
            case .standard: tag(0)
            case .immediately: tag(1)
            case .after(let seconds):
                tag(2)
                int(seconds)
            }
        }
    }

    mutating func property(_ property: IntentGraph.Property) {
        string(property.name)
        valueType(property.type)
        bool(property.isOptional)
        value(property.defaultValue)
        bool(property.isBuiltin)
        range(property.location)
        bool(property.isIndexed)
    }

    mutating func properties(_ properties: [IntentGraph.Property]) {
        count(properties.count)
        for property in properties { self.property(property) }
    }

    mutating func parameter(_ parameter: IntentGraph.Parameter) {
        string(parameter.name)
        valueType(parameter.type)
        string(parameter.title)
        string(parameter.prompt)
        value(parameter.defaultValue)
        bool(parameter.isOptional)
        count(parameter.validations.count)
        for validation in parameter.validations {
            switch validation.rule {
            case .min(let bound):
                tag(0)
                double(bound)
            case .max(let bound):
                tag(1)
                double(bound)
            case .pattern(let pattern):
                tag(2)
                string(pattern)
            case .oneOf(let choices):
                tag(3)
                count(choices.count)
                for choice in choices { value(choice) }
            }
            string(validation.message)
            stringMap(validation.messages)
        }
        range(parameter.location)
        stringMap(parameter.prompts)
        string(parameter.context)
    }

    mutating func parameters(_ parameters: [IntentGraph.Parameter]) {
        count(parameters.count)
        for parameter in parameters { self.parameter(parameter) }
    }

    mutating func phrases(_ phrases: [IntentGraph.Phrase]) {
        count(phrases.count)
        for phrase in phrases {
            string(phrase.language)
            phraseTemplate(phrase.template)
            range(phrase.location)
            values(phrase.values)
        }
    }

    mutating func examples(_ examples: [IntentGraph.Example]) {
        count(examples.count)
        for example in examples {
            string(example.say)
            string(example.language)
            switch example.expectation {
            case .noMatch: tag(0)
            case .match(let intent, let values):
                tag(1)
                name(intent)
                self.values(values)
            }
            range(example.location)
        }
    }

    mutating func intent(_ intent: IntentGraph.Intent) {
        name(intent.name)
        string(intent.title)
        string(intent.description)
        parameters(intent.parameters)
        count(intent.summary.count)
        for branch in intent.summary {
            expression(branch.condition)
            string(branch.conditionSource)
            template(branch.text)
        }
        phrases(intent.phrases)
        phrases(intent.negativePhrases)
        steps(intent.perform)
        template(intent.resultValue)
        valueType(intent.resultType)
        template(intent.resultDialog)
        template(intent.opens)
        switch intent.confirmation {
        case nil: tag(0)
        case .summary: tag(1)
        case .dialog(let dialog):
            tag(2)
            template(dialog)
        }
        templates(intent.resultDialogs) { $0 }
        strings(intent.donate)
        examples(intent.examples)
        range(intent.location)
        bool(intent.suggests)
        if let activity = intent.activity {
            tag(1)
            string(activity.type)
            template(activity.title)
            strings(activity.eligible.map(\.rawValue))
            int(activity.expiry)
            strings(activity.keywords)
        } else {
            tag(0)
        }
        strings(intent.training)
        count(intent.trainingSentences.count)
        for sentence in intent.trainingSentences {
            count(sentence.pieces.count)
            for piece in sentence.pieces {
                string(piece.text)
                string(piece.slot)
            }
        }
        bool(intent.deletesThroughCalls)
    }

    mutating func entity(_ entity: IntentGraph.Entity) {
        name(entity.name)
        properties(entity.properties)
        template(entity.displayTitle)
        template(entity.displaySubtitle)
        string(entity.displayImage)
        strings(entity.matchBy)
        query(entity.suggested)
        range(entity.location)
        if let searchable = entity.searchable {
            tag(1)
            template(searchable.title)
            template(searchable.description)
            template(searchable.keywords)
            expression(searchable.filter)
            int(searchable.expires)
            string(searchable.signature)
        } else {
            tag(0)
        }
        string(entity.title)
        stringMap(entity.titles)
        string(entity.article)
        strings(entity.synonyms)
    }

    mutating func widget(_ widget: IntentGraph.Widget) {
        string(widget.name)
        string(widget.app)
        string(widget.title)
        string(widget.description)
        string(widget.image)
        strings(widget.families.map(\.rawValue))
        int(widget.refresh)
        count(widget.relevance.count)
        for rule in widget.relevance {
            expression(rule.condition)
            string(rule.source)
            int(rule.score)
        }
        let content = widget.content
        template(content.title)
        template(content.value)
        template(content.label)
        expression(content.gauge)
        query(content.items)
        template(content.line)
        template(content.detail)
        template(content.empty)
        template(content.text)
        count(content.figures.count)
        for figure in content.figures {
            template(figure.value)
            template(figure.label)
        }
        template(content.itemLink)
        count(widget.buttons.count)
        for button in widget.buttons {
            template(button.title)
            call(button.action)
        }
        range(widget.location)
        parameters(widget.parameters)
        assignments(widget.bindings)
        template(widget.link)
    }

    mutating func app(_ app: IntentGraph.App) {
        string(app.name)
        string(app.description)
        strings(app.synonyms)
        strings(app.languages)
        string(app.scheme)
        count(app.enums.count)
        for enumeration in app.enums {
            name(enumeration.name)
            count(enumeration.cases.count)
            for item in enumeration.cases {
                string(item.id)
                string(item.title)
                strings(item.synonyms)
            }
            range(enumeration.location)
        }
        count(app.entities.count)
        for entity in app.entities { self.entity(entity) }
        count(app.intents.count)
        for intent in app.intents { self.intent(intent) }
        count(app.shortcuts.count)
        for shortcut in app.shortcuts {
            name(shortcut.intent)
            phrases(shortcut.phrases)
            string(shortcut.shortTitle)
            string(shortcut.image)
            range(shortcut.location)
        }
        count(app.rules.count)
        for (name, rule) in app.rules {
            string(name)
            phraseTemplate(rule)
        }
        count(app.constants.count)
        for (key, constant) in app.constants {
            string(key)
            string(constant.name)
            valueType(constant.type)
            value(constant.value)
        }
        examples(app.examples)
        count(app.widgets.count)
        for widget in app.widgets { self.widget(widget) }
        count(app.controls.count)
        for control in app.controls {
            string(control.name)
            string(control.app)
            string(control.title)
            string(control.image)
            switch control.kind {
            case .toggle(let state, let on, let off):
                tag(0)
                expression(state)
                call(on)
                call(off)
            case .button(let action):
                tag(1)
                call(action)
            }
            range(control.location)
        }
        strings(app.files)
        range(app.location)
        count(app.tips.count)
        for tip in app.tips {
            string(tip.app)
            name(tip.intent)
            string(tip.phrase)
            string(tip.language)
            string(tip.placement.rawValue)
            expression(tip.condition)
            bool(tip.declared)
        }
        count(app.links.count)
        for link in app.links {
            string(link.url)
            string(link.scheme)
            string(link.host)
            count(link.path.count)
            for segment in link.path {
                switch segment {
                case .literal(let word):
                    tag(0)
                    string(word)
                case .slot(let name):
                    tag(1)
                    string(name)
                }
            }
            count(link.query.count)
            for item in link.query {
                string(item.key)
                string(item.slot)
            }
            name(link.intent)
            range(link.location)
        }
        count(app.shareRoutes.count)
        for route in app.shareRoutes {
            strings(route.accepts.map(\.rawValue))
            int(route.maximumCount)
            int(route.maximumSize)
            name(route.intent)
            assignments(route.arguments)
            range(route.location)
        }
        count(app.liveActivities.count)
        for activity in app.liveActivities {
            string(activity.name)
            string(activity.app)
            string(activity.title)
            string(activity.image)
            properties(activity.attributes)
            properties(activity.state)
            expression(activity.progress)
            expression(activity.countdown)
            int(activity.staleAfter)
            let presentations = activity.presentations
            template(presentations.compactLeading)
            template(presentations.compactTrailing)
            template(presentations.minimal)
            templates(presentations.expanded) { $0.rawValue }
            templates(presentations.lockScreen) { $0.rawValue }
            range(activity.location)
        }
        double(app.understanding.act)
        double(app.understanding.ask)
    }

    mutating func diagnostic(_ diagnostic: Diagnostic) {
        string(diagnostic.severity.rawValue)
        string(diagnostic.message.text)
        range(diagnostic.location)
        count(diagnostic.notes.count)
        for note in diagnostic.notes {
            string(note.message.text)
            range(note.location)
        }
        if let fixIt = diagnostic.fixIt {
            tag(1)
            string(fixIt.replacement)
            range(fixIt.range)
        } else {
            tag(0)
        }
    }
}

// MARK: - Reading

struct GraphReader {
    typealias Damaged = GraphCoding.Damaged
    var base: TableReader
    /// How deep the recursive readers are now (`GraphCoding.maximumDepth` bounds it).
    private var depth = 0
    /// Alternatives and optional parts of phrase templates read so far, in order of completion
    /// (`GraphWriter.items`): one read again is shared, not decoded again.
    private var composites: [PhraseTemplate.Item] = []

    init(base: TableReader) { self.base = base }

    /// A count the bytes left could hold (each element at least one byte).
    mutating func count() throws(Damaged) -> Int {
        guard let count = base.reader.integer(UInt32.self),
            Int(count) <= base.reader.end - base.reader.position
        else { throw Damaged() }
        return Int(count)
    }

    mutating func string() throws(Damaged) -> String {
        guard let text = base.string() else { throw Damaged() }
        return text
    }

    mutating func int() throws(Damaged) -> Int {
        guard let value = base.reader.integer(Int64.self) else { throw Damaged() }
        return Int(value)
    }

    mutating func tag() throws(Damaged) -> UInt8 {
        guard let value = base.reader.integer(UInt8.self) else { throw Damaged() }
        return value
    }

    mutating func bool() throws(Damaged) -> Bool {
        switch try self.tag() {
        case 0: return false
        case 1: return true
        default: throw Damaged()
        }
    }

    /// The tag of an optional: whether a value follows.
    mutating func present() throws(Damaged) -> Bool { try self.bool() }

    mutating func double() throws(Damaged) -> Double {
        guard let bits = base.reader.integer(UInt64.self) else { throw Damaged() }
        return Double(bitPattern: bits)
    }

    mutating func strings() throws(Damaged) -> [String] {
        let count = try self.count()
        var texts: [String] = []
        texts.reserveCapacity(count)
        for _ in 0..<count { texts.append(try self.string()) }
        return texts
    }

    mutating func optionalString() throws(Damaged) -> String? {
        guard try self.present() else { return nil }
        return try self.string()
    }
    mutating func optionalInt() throws(Damaged) -> Int? {
        guard try self.present() else { return nil }
        return try self.int()
    }
    mutating func optionalDouble() throws(Damaged) -> Double? {
        guard try self.present() else { return nil }
        return try self.double()
    }

    mutating func stringMap() throws(Damaged) -> [String: String] {
        let count = try self.count()
        var map: [String: String] = [:]
        if count > 0 { map = Dictionary(minimumCapacity: count) }
        for _ in 0..<count {
            let key = try self.string()
            map[key] = try self.string()
        }
        return map
    }

    /// A raw-value enum's case, written as its raw value.
    mutating func raw<T: RawRepresentable>(_: T.Type) throws(Damaged) -> T where T.RawValue == String {
        guard let value = T(rawValue: try self.string()) else { throw Damaged() }
        return value
    }

    mutating func raws<T: RawRepresentable>(_ type: T.Type) throws(Damaged) -> [T] where T.RawValue == String {
        let count = try self.count()
        var values: [T] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try raw(type)) }
        return values
    }

    mutating func name() throws(Damaged) -> QualifiedName {
        let app = try self.string()
        return QualifiedName(app: app, name: try self.string())
    }

    mutating func mark() throws(Damaged) -> Mark {
        let file = try self.string()
        let line = try self.int()
        return Mark(file: file, line: line, column: try self.int())
    }

    mutating func range() throws(Damaged) -> SourceRange {
        let start = try self.mark()
        return SourceRange(start: start, end: try self.mark())
    }

    mutating func optionalRange() throws(Damaged) -> SourceRange? {
        guard try self.present() else { return nil }
        return try self.range()
    }

    mutating func valueType() throws(Damaged) -> ValueType {
        guard let type = base.valueType() else { throw Damaged() }
        return type
    }

    mutating func optionalValueType() throws(Damaged) -> ValueType? {
        guard try self.present() else { return nil }
        return try self.valueType()
    }

    /// Counts one level of nesting for the recursive readers.
    private mutating func enter() throws(Damaged) {
        depth += 1
        guard depth <= GraphCoding.maximumDepth else { throw Damaged() }
    }

    mutating func value() throws(Damaged) -> Value {
        try self.enter()
        defer { depth -= 1 }
        switch try self.tag() {
        case 0: return .string(try self.string())
        case 1: return .integer(try self.int())
        case 2: return .number(try self.double())
        case 3: return .boolean(try self.bool())
        case 4: return .date(try self.date())
        case 5: return .duration(seconds: try self.int())
        case 6: return .url(try self.string())
        case 7: return .enumCase(try self.string())
        case 8:
            let count = try self.count()
            var items: [Value] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try self.value()) }
            return .array(items)
        default: throw Damaged()
        }
    }

    mutating func optionalValue() throws(Damaged) -> Value? {
        guard try self.present() else { return nil }
        return try self.value()
    }

    mutating func values() throws(Damaged) -> [String: Value] {
        let count = try self.count()
        var map: [String: Value] = [:]
        if count > 0 { map = Dictionary(minimumCapacity: count) }
        for _ in 0..<count {
            let key = try self.string()
            map[key] = try self.value()
        }
        return map
    }

    mutating func date() throws(Damaged) -> DateValue {
        switch try self.tag() {
        case 0: return .moment(Date(timeIntervalSinceReferenceDate: try self.double()))
        case 1: return .now
        case 2:
            let days = try self.int()
            return .relative(days: days, time: try self.time())
        case 3:
            let year = try self.int(), month = try self.int(), day = try self.int()
            return .local(year: year, month: month, day: day, time: try self.time())
        default: throw Damaged()
        }
    }

    mutating func time() throws(Damaged) -> TimeOfDay? {
        guard try self.present() else { return nil }
        let hour = try self.int(), minute = try self.int(), second = try self.int()
        guard let time = TimeOfDay(hour: hour, minute: minute, second: second) else { throw Damaged() }
        return time
    }

    mutating func expression() throws(Damaged) -> IntentModel.Expression {
        try self.enter()
        defer { depth -= 1 }
        let lower = try self.int(), upper = try self.int()
        guard lower <= upper else { throw Damaged() }
        let kind: IntentModel.Expression.Kind
        switch try self.tag() {
        case 0: kind = .literal(try self.value())
        case 1: kind = .null
        case 2: kind = .name(try self.string())
        case 3: kind = .implicitCase(try self.string())
        case 4:
            let type = try self.name()
            kind = .enumCase(type, try self.string())
        case 5:
            let base = try self.expression()
            kind = .member(base, try self.string())
        case 6:
            let operation = try raw(IntentModel.Expression.UnaryOperator.self)
            kind = .unary(operation, try self.expression())
        case 7:
            let operation = try raw(IntentModel.Expression.BinaryOperator.self)
            let left = try self.expression()
            kind = .binary(operation, left, try self.expression())
        case 8:
            let condition = try self.expression(), then = try self.expression()
            kind = .conditional(condition, then, try self.expression())
        case 9:
            let function = try self.string()
            kind = .call(function, try self.expressions())
        case 10:
            let entity = try self.string()
            kind = .query(entity: entity, filter: try self.optionalExpression())
        case 11: kind = .list(try self.expressions())
        default: throw Damaged()
        }
        return IntentModel.Expression(kind, span: lower..<upper)
    }

    mutating func optionalExpression() throws(Damaged) -> IntentModel.Expression? {
        guard try self.present() else { return nil }
        return try self.expression()
    }

    mutating func expressions() throws(Damaged) -> [IntentModel.Expression] {
        let count = try self.count()
        var expressions: [IntentModel.Expression] = []
        expressions.reserveCapacity(count)
        for _ in 0..<count { expressions.append(try self.expression()) }
        return expressions
    }

    mutating func template() throws(Damaged) -> Template {
        try self.enter()
        defer { depth -= 1 }
        let source = try self.string()
        let partCount = try self.count()
        var parts: [Template.Part] = []
        parts.reserveCapacity(partCount)
        for _ in 0..<partCount {
            switch try self.tag() {
            case 0: parts.append(.text(try self.string()))
            case 1:
                let expression = try self.expression()
                parts.append(.expression(expression, source: try self.string()))
            default: throw Damaged()
            }
        }
        var template = Template(parts: parts, source: source)
        let languages = try self.count()
        for _ in 0..<languages {
            let language = try self.string()
            template.byLanguage[language] = try self.template()
        }
        return template
    }

    mutating func optionalTemplate() throws(Damaged) -> Template? {
        guard try self.present() else { return nil }
        return try self.template()
    }

    mutating func templates() throws(Damaged) -> [String: Template] {
        let count = try self.count()
        var map: [String: Template] = [:]
        if count > 0 { map = Dictionary(minimumCapacity: count) }
        for _ in 0..<count {
            let key = try self.string()
            map[key] = try self.template()
        }
        return map
    }

    mutating func templates<Key: RawRepresentable & Hashable>(_: Key.Type) throws(Damaged) -> [Key: Template]
    where Key.RawValue == String {
        let count = try self.count()
        var map: [Key: Template] = [:]
        for _ in 0..<count {
            let key = try raw(Key.self)
            map[key] = try self.template()
        }
        return map
    }

    mutating func phraseTemplate() throws(Damaged) -> PhraseTemplate {
        let source = try self.string()
        return PhraseTemplate(items: try self.items(), source: source)
    }

    mutating func items() throws(Damaged) -> [PhraseTemplate.Item] {
        try self.enter()
        defer { depth -= 1 }
        let count = try self.count()
        var items: [PhraseTemplate.Item] = []
        items.reserveCapacity(count)
        for _ in 0..<count {
            switch try self.tag() {
            case 0: items.append(.word(try self.string()))
            case 1:
                let name = try self.string()
                items.append(.slot(name, offset: try self.int()))
            case 2: items.append(.app)
            case 3:
                let name = try self.string()
                items.append(.rule(name, offset: try self.int()))
            case let kind where kind == 4 || kind == 5:
                let branchCount = try self.count()
                var branches: [[PhraseTemplate.Item]] = []
                branches.reserveCapacity(branchCount)
                for _ in 0..<branchCount { branches.append(try self.items()) }
                let item: PhraseTemplate.Item = kind == 4 ? .alternatives(branches) : .optional(branches)
                composites.append(item)
                items.append(item)
            case 6:
                guard let number = base.reader.integer(UInt32.self), Int(number) < composites.count else {
                    throw Damaged()
                }
                items.append(composites[Int(number)])
            default: throw Damaged()
            }
        }
        return items
    }

    mutating func query() throws(Damaged) -> IntentGraph.Query {
        let entity = try self.name()
        let filter = try self.optionalExpression()
        let sortCount = try self.count()
        var sort: [IntentGraph.SortKey] = []
        sort.reserveCapacity(sortCount)
        for _ in 0..<sortCount {
            let property = try self.string()
            sort.append(IntentGraph.SortKey(property: property, descending: try self.bool()))
        }
        return IntentGraph.Query(entity: entity, filter: filter, sort: sort, limit: try self.optionalInt())
    }

    mutating func optionalQuery() throws(Damaged) -> IntentGraph.Query? {
        guard try self.present() else { return nil }
        return try self.query()
    }

    mutating func assignments() throws(Damaged) -> [IntentGraph.Assignment] {
        let count = try self.count()
        var assignments: [IntentGraph.Assignment] = []
        assignments.reserveCapacity(count)
        for _ in 0..<count {
            let name = try self.string()
            assignments.append(IntentGraph.Assignment(name: name, value: try self.template()))
        }
        return assignments
    }

    mutating func call() throws(Damaged) -> IntentGraph.IntentCall {
        let intent = try self.name()
        return IntentGraph.IntentCall(intent: intent, arguments: try self.assignments())
    }

    mutating func steps() throws(Damaged) -> [IntentGraph.Step] {
        try self.enter()
        defer { depth -= 1 }
        let count = try self.count()
        var steps: [IntentGraph.Step] = []
        steps.reserveCapacity(count)
        for _ in 0..<count { steps.append(try self.step()) }
        return steps
    }

    mutating func step() throws(Damaged) -> IntentGraph.Step {
        switch try self.tag() {
        case 0:
            let entity = try self.name(), set = try self.assignments()
            return .create(entity: entity, set: set, binding: try self.optionalString())
        case 1:
            let target = try self.expression(), set = try self.assignments(), increment = try self.assignments()
            let toggle = try self.strings()
            return .update(
                target: target, set: set, increment: increment, toggle: toggle, binding: try self.optionalString())
        case 2: return .delete(target: try self.expression())
        case 3:
            let query = try self.query(), first = try self.bool()
            return .find(query, first: first, binding: try self.optionalString())
        case 4: return .bind(try self.assignments())
        case 5:
            let intent = try self.name(), arguments = try self.assignments()
            return .call(intent: intent, arguments: arguments, binding: try self.optionalString())
        case 6: return .open(url: try self.template())
        case 7:
            let condition = try self.expression(), then = try self.steps()
            return .branch(condition: condition, then: then, otherwise: try self.steps())
        case 8: return .fail(message: try self.template())
        case 9:
            let action = try raw(IntentGraph.ActivityStep.Action.self)
            let activity = try self.name(), arguments = try self.assignments(), id = try self.optionalTemplate()
            let dismissal: IntentGraph.ActivityStep.Dismissal
            switch try self.tag() {
            case 0: dismissal = .standard
            case 1: dismissal = .immediately
            case 2: dismissal = .after(try self.int())
            default: throw Damaged()
            }
            return .activity(
                IntentGraph.ActivityStep(
                    action: action, activity: activity, arguments: arguments, id: id, dismissal: dismissal))
        default: throw Damaged()
        }
    }

    mutating func property() throws(Damaged) -> IntentGraph.Property {
        let name = try self.string(), type = try self.valueType(), isOptional = try self.bool(),
            defaultValue = try self.optionalValue()
        let isBuiltin = try self.bool(), location = try self.range()
        return IntentGraph.Property(
            name: name, type: type, isOptional: isOptional, defaultValue: defaultValue, isBuiltin: isBuiltin,
            location: location, isIndexed: try self.bool())
    }

    mutating func properties() throws(Damaged) -> [IntentGraph.Property] {
        let count = try self.count()
        var properties: [IntentGraph.Property] = []
        properties.reserveCapacity(count)
        for _ in 0..<count { properties.append(try self.property()) }
        return properties
    }

    mutating func parameter() throws(Damaged) -> IntentGraph.Parameter {
        let name = try self.string(), type = try self.valueType(), title = try self.string(),
            prompt = try self.optionalString()
        let defaultValue = try self.optionalValue(), isOptional = try self.bool()
        let validationCount = try self.count()
        var validations: [IntentGraph.Validation] = []
        validations.reserveCapacity(validationCount)
        for _ in 0..<validationCount {
            let rule: IntentGraph.Validation.Rule
            switch try self.tag() {
            case 0: rule = .min(try self.double())
            case 1: rule = .max(try self.double())
            case 2: rule = .pattern(try self.string())
            case 3:
                let count = try self.count()
                var choices: [Value] = []
                choices.reserveCapacity(count)
                for _ in 0..<count { choices.append(try self.value()) }
                rule = .oneOf(choices)
            default: throw Damaged()
            }
            var validation = IntentGraph.Validation(rule: rule, message: try self.string())
            validation.messages = try self.stringMap()
            validations.append(validation)
        }
        var parameter = IntentGraph.Parameter(
            name: name, type: type, title: title, prompt: prompt, defaultValue: defaultValue, isOptional: isOptional,
            validations: validations, location: try self.range())
        parameter.prompts = try self.stringMap()
        parameter.context = try self.optionalString()
        return parameter
    }

    mutating func parameters() throws(Damaged) -> [IntentGraph.Parameter] {
        let count = try self.count()
        var parameters: [IntentGraph.Parameter] = []
        parameters.reserveCapacity(count)
        for _ in 0..<count { parameters.append(try self.parameter()) }
        return parameters
    }

    mutating func phrases() throws(Damaged) -> [IntentGraph.Phrase] {
        let count = try self.count()
        var phrases: [IntentGraph.Phrase] = []
        phrases.reserveCapacity(count)
        for _ in 0..<count {
            let language = try self.string(), template = try self.phraseTemplate()
            var phrase = IntentGraph.Phrase(language: language, template: template, location: try self.range())
            phrase.values = try self.values()
            phrases.append(phrase)
        }
        return phrases
    }

    mutating func examples() throws(Damaged) -> [IntentGraph.Example] {
        let count = try self.count()
        var examples: [IntentGraph.Example] = []
        examples.reserveCapacity(count)
        for _ in 0..<count {
            let say = try self.string(), language = try self.string()
            let expectation: IntentGraph.Example.Expectation
            switch try self.tag() {
            case 0: expectation = .noMatch
            case 1:
                let intent = try self.name()
                expectation = .match(intent, try self.values())
            default: throw Damaged()
            }
            examples.append(
                IntentGraph.Example(say: say, language: language, expectation: expectation, location: try self.range()))
        }
        return examples
    }

    mutating func intent() throws(Damaged) -> IntentGraph.Intent {
        let name = try self.name(), title = try self.string(), description = try self.optionalString()
        let parameters = try self.parameters()
        let summaryCount = try self.count()
        var summary: [IntentGraph.SummaryBranch] = []
        summary.reserveCapacity(summaryCount)
        for _ in 0..<summaryCount {
            let condition = try self.optionalExpression(), source = try self.optionalString()
            summary.append(
                IntentGraph.SummaryBranch(condition: condition, conditionSource: source, text: try self.template()))
        }
        let phrases = try self.phrases(), negativePhrases = try self.phrases(), perform = try self.steps()
        let resultValue = try self.optionalTemplate(), resultType = try self.optionalValueType()
        let resultDialog = try self.optionalTemplate(), opens = try self.optionalTemplate()
        let confirmation: IntentGraph.Confirmation?
        switch try self.tag() {
        case 0: confirmation = nil
        case 1: confirmation = .summary
        case 2: confirmation = .dialog(try self.template())
        default: throw Damaged()
        }
        let resultDialogs = try self.templates(), donate = try self.strings(), examples = try self.examples()
        let location = try self.range(), suggests = try self.bool()
        var intent = IntentGraph.Intent(
            name: name, title: title, description: description, parameters: parameters, summary: summary,
            phrases: phrases, negativePhrases: negativePhrases, perform: perform, resultValue: resultValue,
            resultType: resultType, resultDialog: resultDialog, opens: opens, confirmation: confirmation,
            donate: donate, examples: examples, location: location, suggests: suggests)
        intent.resultDialogs = resultDialogs
        if try self.present() {
            let type = try self.string(), title = try self.optionalTemplate()
            let eligible = try raws(IntentGraph.Activity.Eligibility.self), expiry = try self.int()
            intent.activity = IntentGraph.Activity(
                type: type, title: title, eligible: eligible, expiry: expiry, keywords: try self.strings())
        }
        intent.training = try self.strings()
        let sentenceCount = try self.count()
        var sentences: [IntentGraph.TrainingSentence] = []
        sentences.reserveCapacity(sentenceCount)
        for _ in 0..<sentenceCount {
            let pieceCount = try self.count()
            var pieces: [IntentGraph.TrainingSentence.Piece] = []
            pieces.reserveCapacity(pieceCount)
            for _ in 0..<pieceCount {
                let text = try self.string()
                pieces.append(IntentGraph.TrainingSentence.Piece(text: text, slot: try self.optionalString()))
            }
            sentences.append(IntentGraph.TrainingSentence(pieces: pieces))
        }
        intent.trainingSentences = sentences
        intent.deletesThroughCalls = try self.bool()
        return intent
    }

    mutating func entity() throws(Damaged) -> IntentGraph.Entity {
        let name = try self.name(), properties = try self.properties(), displayTitle = try self.template()
        let displaySubtitle = try self.optionalTemplate(), displayImage = try self.optionalString(),
            matchBy = try self.strings()
        let suggested = try self.optionalQuery(), location = try self.range()
        var searchable: IntentGraph.Searchable?
        if try self.present() {
            let title = try self.template(), description = try self.optionalTemplate(),
                keywords = try self.optionalTemplate()
            let filter = try self.optionalExpression(), expires = try self.optionalInt()
            searchable = IntentGraph.Searchable(
                title: title, description: description, keywords: keywords, filter: filter, expires: expires,
                signature: try self.string())
        }
        var entity = IntentGraph.Entity(
            name: name, properties: properties, displayTitle: displayTitle, displaySubtitle: displaySubtitle,
            displayImage: displayImage, matchBy: matchBy, suggested: suggested, location: location,
            searchable: searchable)
        entity.title = try self.optionalString()
        entity.titles = try self.stringMap()
        entity.article = try self.optionalString()
        entity.synonyms = try self.strings()
        return entity
    }

    mutating func widget() throws(Damaged) -> IntentGraph.Widget {
        let name = try self.string(), app = try self.string(), title = try self.string(),
            description = try self.optionalString()
        let image = try self.optionalString(), families = try raws(IntentGraph.WidgetFamily.self),
            refresh = try self.optionalInt()
        let ruleCount = try self.count()
        var relevance: [IntentGraph.RelevanceRule] = []
        relevance.reserveCapacity(ruleCount)
        for _ in 0..<ruleCount {
            let condition = try self.optionalExpression(), source = try self.optionalString()
            relevance.append(IntentGraph.RelevanceRule(condition: condition, source: source, score: try self.int()))
        }
        let contentTitle = try self.optionalTemplate(), value = try self.optionalTemplate(),
            label = try self.optionalTemplate()
        let gauge = try self.optionalExpression(), items = try self.optionalQuery(), line = try self.optionalTemplate()
        let detail = try self.optionalTemplate(), empty = try self.optionalTemplate()
        var content = IntentGraph.WidgetContent(
            title: contentTitle, value: value, label: label, gauge: gauge, items: items, line: line, detail: detail,
            empty: empty)
        content.text = try self.optionalTemplate()
        let figureCount = try self.count()
        var figures: [IntentGraph.WidgetFigure] = []
        figures.reserveCapacity(figureCount)
        for _ in 0..<figureCount {
            let value = try self.template()
            figures.append(IntentGraph.WidgetFigure(value: value, label: try self.optionalTemplate()))
        }
        content.figures = figures
        content.itemLink = try self.optionalTemplate()
        let buttonCount = try self.count()
        var buttons: [IntentGraph.WidgetButton] = []
        buttons.reserveCapacity(buttonCount)
        for _ in 0..<buttonCount {
            let title = try self.template()
            buttons.append(IntentGraph.WidgetButton(title: title, action: try self.call()))
        }
        var widget = IntentGraph.Widget(
            name: name, app: app, title: title, description: description, image: image, families: families,
            refresh: refresh, relevance: relevance, content: content, buttons: buttons, location: try self.range())
        widget.parameters = try self.parameters()
        widget.bindings = try self.assignments()
        widget.link = try self.optionalTemplate()
        return widget
    }

    mutating func app() throws(Damaged) -> IntentGraph.App {
        let name = try self.string(), description = try self.optionalString(), synonyms = try self.strings()
        let languages = try self.strings(), scheme = try self.optionalString()
        let enumCount = try self.count()
        var enums: [IntentGraph.Enumeration] = []
        enums.reserveCapacity(enumCount)
        for _ in 0..<enumCount {
            let enumName = try self.name()
            let caseCount = try self.count()
            var cases: [IntentGraph.Enumeration.Case] = []
            cases.reserveCapacity(caseCount)
            for _ in 0..<caseCount {
                let id = try self.string(), title = try self.string()
                cases.append(IntentGraph.Enumeration.Case(id: id, title: title, synonyms: try self.strings()))
            }
            enums.append(IntentGraph.Enumeration(name: enumName, cases: cases, location: try self.range()))
        }
        let entityCount = try self.count()
        var entities: [IntentGraph.Entity] = []
        entities.reserveCapacity(entityCount)
        for _ in 0..<entityCount { entities.append(try self.entity()) }
        let intentCount = try self.count()
        var intents: [IntentGraph.Intent] = []
        intents.reserveCapacity(intentCount)
        for _ in 0..<intentCount { intents.append(try self.intent()) }
        let shortcutCount = try self.count()
        var shortcuts: [IntentGraph.AppShortcut] = []
        shortcuts.reserveCapacity(shortcutCount)
        for _ in 0..<shortcutCount {
            let intent = try self.name(), phrases = try self.phrases(), shortTitle = try self.string(),
                image = try self.optionalString()
            shortcuts.append(
                IntentGraph.AppShortcut(
                    intent: intent, phrases: phrases, shortTitle: shortTitle, image: image, location: try self.range()))
        }
        let ruleCount = try self.count()
        var rules: [String: PhraseTemplate] = [:]
        if ruleCount > 0 { rules = Dictionary(minimumCapacity: ruleCount) }
        for _ in 0..<ruleCount {
            let ruleName = try self.string()
            rules[ruleName] = try self.phraseTemplate()
        }
        let constantCount = try self.count()
        var constants: [String: IntentGraph.Constant] = [:]
        if constantCount > 0 { constants = Dictionary(minimumCapacity: constantCount) }
        for _ in 0..<constantCount {
            let key = try self.string(), constantName = try self.string(), type = try self.valueType()
            constants[key] = IntentGraph.Constant(name: constantName, type: type, value: try self.value())
        }
        let examples = try self.examples()
        let widgetCount = try self.count()
        var widgets: [IntentGraph.Widget] = []
        widgets.reserveCapacity(widgetCount)
        for _ in 0..<widgetCount { widgets.append(try self.widget()) }
        let controlCount = try self.count()
        var controls: [IntentGraph.Control] = []
        controls.reserveCapacity(controlCount)
        for _ in 0..<controlCount {
            let controlName = try self.string(), app = try self.string(), title = try self.string(),
                image = try self.optionalString()
            let kind: IntentGraph.Control.Kind
            switch try self.tag() {
            case 0:
                let state = try self.expression(), on = try self.call()
                kind = .toggle(state: state, on: on, off: try self.call())
            case 1: kind = .button(try self.call())
            default: throw Damaged()
            }
            controls.append(
                IntentGraph.Control(
                    name: controlName, app: app, title: title, image: image, kind: kind, location: try self.range()))
        }
        let files = try self.strings(), location = try self.range()
        let tipCount = try self.count()
        var tips: [IntentGraph.Tip] = []
        tips.reserveCapacity(tipCount)
        for _ in 0..<tipCount {
            let app = try self.string(), intent = try self.name(), phrase = try self.string(),
                language = try self.string()
            let placement = try raw(IntentGraph.TipPlacement.self), condition = try self.optionalExpression()
            tips.append(
                IntentGraph.Tip(
                    app: app, intent: intent, phrase: phrase, language: language, placement: placement,
                    condition: condition, declared: try self.bool()))
        }
        var app = IntentGraph.App(
            name: name, description: description, synonyms: synonyms, languages: languages, scheme: scheme,
            enums: enums, entities: entities, intents: intents, shortcuts: shortcuts, rules: rules,
            constants: constants, examples: examples, widgets: widgets, controls: controls, files: files,
            location: location, tips: tips)
        let linkCount = try self.count()
        for _ in 0..<linkCount {
            let url = try self.string(), scheme = try self.string(), host = try self.string()
            let segmentCount = try self.count()
            var path: [IntentGraph.LinkRoute.Segment] = []
            path.reserveCapacity(segmentCount)
            for _ in 0..<segmentCount {
                switch try self.tag() {
                case 0: path.append(.literal(try self.string()))
                case 1: path.append(.slot(try self.string()))
                default: throw Damaged()
                }
            }
            let itemCount = try self.count()
            var query: [IntentGraph.LinkRoute.QueryItem] = []
            query.reserveCapacity(itemCount)
            for _ in 0..<itemCount {
                let key = try self.string()
                query.append(IntentGraph.LinkRoute.QueryItem(key: key, slot: try self.string()))
            }
            let intent = try self.name()
            app.links.append(
                IntentGraph.LinkRoute(
                    url: url, scheme: scheme, host: host, path: path, query: query, intent: intent,
                    location: try self.range()))
        }
        let routeCount = try self.count()
        for _ in 0..<routeCount {
            let accepts = try raws(IntentGraph.ShareRoute.Content.self), maximumCount = try self.optionalInt()
            let maximumSize = try self.optionalInt(), intent = try self.name(), arguments = try self.assignments()
            app.shareRoutes.append(
                IntentGraph.ShareRoute(
                    accepts: accepts, maximumCount: maximumCount, maximumSize: maximumSize, intent: intent,
                    arguments: arguments, location: try self.range()))
        }
        let activityCount = try self.count()
        for _ in 0..<activityCount {
            let activityName = try self.string(), app2 = try self.string(), title = try self.string(),
                image = try self.optionalString()
            let attributes = try self.properties(), state = try self.properties(),
                progress = try self.optionalExpression()
            let countdown = try self.optionalExpression(), staleAfter = try self.optionalInt()
            let compactLeading = try self.optionalTemplate(), compactTrailing = try self.optionalTemplate()
            let minimal = try self.optionalTemplate(), expanded = try self.templates(IntentGraph.ExpandedRegion.self)
            let lockScreen = try self.templates(IntentGraph.LockScreenPart.self)
            app.liveActivities.append(
                IntentGraph.LiveActivity(
                    name: activityName, app: app2, title: title, image: image, attributes: attributes, state: state,
                    progress: progress, countdown: countdown, staleAfter: staleAfter,
                    presentations: IntentGraph.ActivityPresentations(
                        compactLeading: compactLeading, compactTrailing: compactTrailing, minimal: minimal,
                        expanded: expanded, lockScreen: lockScreen),
                    location: try self.range()))
        }
        let act = try self.optionalDouble()
        app.understanding = IntentGraph.Understanding(act: act, ask: try self.optionalDouble())
        return app
    }

    mutating func diagnostic() throws(Damaged) -> Diagnostic {
        let severity = try raw(Diagnostic.Severity.self), message = try self.string(),
            location = try self.optionalRange()
        let noteCount = try self.count()
        var notes: [Diagnostic.Note] = []
        notes.reserveCapacity(noteCount)
        for _ in 0..<noteCount {
            let text = try self.string()
            notes.append(Diagnostic.Note(Diagnostic.Message(text), at: try self.optionalRange()))
        }
        var fixIt: Diagnostic.FixIt?
        if try self.present() {
            let replacement = try self.string()
            fixIt = Diagnostic.FixIt(replacement: replacement, range: try self.range())
        }
        return Diagnostic(severity, Diagnostic.Message(message), at: location, notes: notes, fixIt: fixIt)
    }
}
