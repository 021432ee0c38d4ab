import Foundation
import IntentModel
import YAML

/// Rasa's `nlu.yml` → one app: each intent's examples become phrases (the annotated words a slot)
/// and examples for `intents test`; entities become parameters, typed by an enum when a `lookup:`
/// or `synonym:` gives their values, else free text; `regex:` becomes a pattern on free-text
/// parameters of that name. A file it cannot read as Rasa's (no `nlu:` list, an annotation that is
/// not JSON with an "entity") gets errors at their place, and nothing is imported.
struct RasaImporter {
    let file: String
    let appName: String
    var report = ImportReport()
    /// What makes the file unusable, each at its place; any error means nothing is written.
    private(set) var diagnostics: [Diagnostic] = []
    /// The file's lines, for the columns of items inside block scalars (which drop their indentation).
    private let sourceLines: [Substring]

    init(file: String, appName: String, source: String = "") {
        self.file = file
        self.appName = appName
        self.sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// One example: the words said, and the annotated values in order.
    struct Example {
        struct Value {
            var entity: String
            var text: String
            var value: String?
        }

        var pieces: [Piece] = []
        var values: [Value] = []
        var mark: Mark

        enum Piece {
            case text(String)
            case slot(Int)
        }

        var said: String {
            pieces.map {
                switch $0 {
                case .text(let text): text
                case .slot(let index): values[index].text
                }
            }.joined()
        }
    }

    mutating func importApp(from document: Node) -> ImportedApp {
        var app = ImportedApp(
            name: appName, description: "Imported from Rasa (\(URL(fileURLWithPath: file).lastPathComponent)).")
        var intents: [(name: String, mark: Mark, examples: [Example])] = []
        var lookups: [String: (values: [String], mark: Mark)] = [:]
        var synonyms: [(canonical: String, synonyms: [String])] = []
        var regexes: [(name: String, pattern: String, mark: Mark)] = []
        if let language = document["language"]?.string { app.language = language }
        guard let blocks = document["nlu"]?.sequence else {
            let place = document.mapping == nil ? "the file is not a mapping" : "the file has no 'nlu:' list"
            var diagnostic = Diagnostic(
                .error, "\(place); a Rasa nlu.yml holds 'nlu:' with intents and their examples",
                at: SourceRange(at: document.mark))
            if file.hasSuffix(".md") {
                diagnostic.notes.append(
                    Diagnostic.Note(
                        "Rasa's Markdown training data is not read; convert it first: rasa data convert nlu -f yaml",
                        at: nil))
            }
            diagnostics.append(diagnostic)
            return app
        }
        for block in blocks {
            guard let pairs = block.mapping else {
                lost("an entry of 'nlu:'", why: "it is not a mapping", at: block.mark)
                continue
            }
            let examples = lines(block["examples"])
            if let name = block["intent"]?.string {
                intents.append((name, block.mark, examples.compactMap { parse($0.text, at: $0.mark) }))
            } else if let name = block["lookup"]?.string {
                lookups[name] = (examples.map(\.text), block.mark)
            } else if let name = block["synonym"]?.string {
                synonyms.append((name, examples.map(\.text)))
            } else if let name = block["regex"]?.string {
                for example in examples { regexes.append((name, example.text, example.mark)) }
            } else {
                let key = pairs.first?.key.string ?? "?"
                lost(
                    "'\(key):' entry", why: "only intent, synonym, lookup and regex entries carry over", at: block.mark)
            }
            for pair in pairs {
                guard let key = pair.key.string, !["intent", "lookup", "synonym", "regex", "examples"].contains(key)
                else { continue }
                lost("'\(key):'", why: "Rasa-only metadata; the sentences do not need it", at: pair.key.mark)
            }
        }

        // Entities with known values become enums.
        var enums: [String: ImportedApp.Enumeration] = [:]
        let annotated = intents.flatMap { $0.examples.flatMap(\.values) }
        for entity in Set(annotated.map(\.entity)).sorted() {
            let uses = annotated.filter { $0.entity == entity }
            let ownSynonyms = synonyms.filter { entry in
                uses.contains {
                    $0.value == entry.canonical || entry.synonyms.contains($0.text) || $0.text == entry.canonical
                }
            }
            let mapped = uses.contains { $0.value != nil && $0.value != $0.text }
            guard lookups[entity] != nil || !ownSynonyms.isEmpty || mapped else { continue }
            var enumeration = ImportedApp.Enumeration(name: Names.typeName(entity))
            for value in lookups[entity]?.values ?? [] { enumeration.add(value) }
            for entry in ownSynonyms { enumeration.add(entry.canonical, synonyms: entry.synonyms) }
            for use in uses {
                enumeration.add(
                    use.value ?? use.text, synonyms: use.value != nil && use.value != use.text ? [use.text] : [])
            }
            enums[entity] = enumeration
        }
        for (name, lookup) in lookups.sorted(by: { $0.key < $1.key })
        where !annotated.contains(where: { $0.entity == name }) {
            lost(
                "the lookup '\(name)'",
                why: "no example annotates an entity of that name, so no parameter takes its values", at: lookup.mark)
        }
        for entry in synonyms where !enums.values.contains(where: { $0.caseID(for: entry.canonical) != nil }) {
            lost("the synonym '\(entry.canonical)'", why: "no annotated entity has this value", at: document.mark)
        }

        var seenPhrases: [String: String] = [:]
        for (name, mark, examples) in intents {
            var intent = ImportedApp.Intent(
                name: Names.typeName(name), title: name.replacingOccurrences(of: "_", with: " ").capitalized,
                description: "Rasa intent '\(name)'.",
                dialog: "\(name.replacingOccurrences(of: "_", with: " ").capitalized).")
            if examples.isEmpty {
                lost("the intent '\(name)'", why: "it has no examples to make phrases from", at: mark)
                continue
            }
            for example in examples {
                var template = ""
                var expect: [(String, String)] = []
                var usable = true
                var used: Set<String> = []
                for piece in example.pieces {
                    switch piece {
                    case .text(let text):
                        template += Names.literal(text).isEmpty ? " " : " " + Names.literal(text) + " "
                    case .slot(let index):
                        let value = example.values[index]
                        let parameter = Names.parameterName(value.entity)
                        guard used.insert(parameter).inserted else {
                            lost(
                                "'\(example.said)'",
                                why: "the entity '\(value.entity)' is annotated twice; one parameter holds one value",
                                at: example.mark)
                            usable = false
                            continue
                        }
                        template += " {\(parameter)} "
                        if intent.parameter(parameter) == nil {
                            intent.parameters.append(
                                ImportedApp.Parameter(name: parameter, type: enums[value.entity]?.name ?? "string"))
                        }
                        if let enumeration = enums[value.entity] {
                            expect.append(
                                (
                                    parameter,
                                    enumeration.caseID(for: value.value ?? value.text) ?? Names.caseID(value.text)
                                ))
                        } else {
                            if let given = value.value, given != value.text {
                                lost(
                                    "the value '\(given)' of '\(value.text)'",
                                    why: "free-text parameters take the words said; add a synonym: entry to map them",
                                    at: example.mark)
                            }
                            expect.append((parameter, value.text))
                        }
                    }
                }
                guard usable else { continue }
                let phrase = template.split(separator: " ").joined(separator: " ")
                guard !phrase.isEmpty else { continue }
                if intent.parameters.contains(where: { $0.type == "string" && "{\($0.name)}" == phrase }) {
                    lost(
                        "'\(example.said)'", why: "a sentence that is only free text would match anything",
                        at: example.mark)
                    continue
                }
                if let other = seenPhrases[phrase.lowercased()], other != intent.name {
                    lost(
                        "'\(example.said)'",
                        why: "the intent '\(other)' already has this sentence; one sentence means one intent here",
                        at: example.mark)
                    continue
                }
                seenPhrases[phrase.lowercased()] = intent.name
                if !intent.phrases.contains(phrase) { intent.phrases.append(phrase) }
                intent.examples.append(ImportedApp.Example(say: Names.literal(example.said), expect: expect))
            }
            guard !intent.phrases.isEmpty else {
                lost("the intent '\(name)'", why: "none of its examples could become a phrase", at: mark)
                continue
            }
            app.intents.append(intent)
        }
        app.enums = enums.values.sorted { $0.name < $1.name }

        for regex in regexes {
            var applied = false
            for index in app.intents.indices {
                for parameterIndex in app.intents[index].parameters.indices
                where app.intents[index].parameters[parameterIndex].name == Names.parameterName(regex.name)
                    && app.intents[index].parameters[parameterIndex].type == "string"
                {
                    app.intents[index].parameters[parameterIndex].validate.append(
                        "{ pattern: \(Names.quoted(regex.pattern)), message: \(Names.quoted("That is not a valid \(regex.name.replacingOccurrences(of: "_", with: " "))."))}"
                    )
                    applied = true
                }
            }
            if !applied {
                lost(
                    "the regex '\(regex.name)'",
                    why: "no free-text parameter of that name to check; regexes as intent features have no equivalent",
                    at: regex.mark)
            }
        }
        return app
    }

    private mutating func error(_ message: Diagnostic.Message, at mark: Mark, length: Int = 0) {
        diagnostics.append(
            Diagnostic(.error, message, at: SourceRange(start: mark, end: mark.advanced(by: length))))
    }

    /// Where `text` starts on the line of `mark` (an item's `-`), else the mark itself.
    private func mark(of text: Substring, onLineOf mark: Mark) -> Mark {
        guard mark.line >= 1, mark.line <= sourceLines.count else { return mark }
        let line = sourceLines[mark.line - 1]
        guard let found = line.range(of: text) else { return mark }
        return Mark(file: mark.file, line: mark.line, column: line.unicodeScalars[..<found.lowerBound].count + 1)
    }

    private mutating func lost(_ what: String, why: String, at mark: Mark) {
        report.lost(what, why: why, file: file, line: mark.line, column: mark.column)
    }

    /// The `- item` lines of an `examples: |` block (or a YAML list), each with its mark.
    private func lines(_ node: Node?) -> [(text: String, mark: Mark)] {
        guard let node else { return [] }
        if let items = node.sequence { return items.compactMap { item in item.string.map { ($0, item.mark) } } }
        guard let text = node.string else { return [] }
        var found: [(String, Mark)] = []
        // A literal or folded block starts on the line after its indicator (`|`, `>`); its items
        // are found at their `-` in the source, since the value has lost the indentation.
        let isBlock = node.scalar?.style == .literal || node.scalar?.style == .folded
        let firstLine = node.mark.line + (isBlock ? 1 : 0)
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("-") else { continue }
            let item = trimmed.dropFirst().trimmingCharacters(in: .whitespaces)
            guard !item.isEmpty else { continue }
            var column = node.mark.column
            if isBlock, firstLine + offset - 1 < sourceLines.count,
                let dash = sourceLines[firstLine + offset - 1].unicodeScalars.firstIndex(of: "-")
            {
                let source = sourceLines[firstLine + offset - 1].unicodeScalars
                column = source.distance(from: source.startIndex, to: dash) + 1
            }
            found.append((item, Mark(file: file, line: firstLine + offset, column: column)))
        }
        return found
    }

    /// `show me [chinese](cuisine) food` and `[NYC]{"entity": "city", "value": "New York"}`.
    private mutating func parse(_ text: String, at mark: Mark) -> Example? {
        var example = Example(mark: mark)
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "[") {
            guard let close = rest[open...].firstIndex(of: "]") else { break }
            let words = String(rest[rest.index(after: open)..<close])
            let after = rest[rest.index(after: close)...]
            var value: Example.Value?
            var consumed = after.startIndex
            if after.first == "(", let end = after.firstIndex(of: ")") {
                let inside = after[after.index(after: after.startIndex)..<end]
                let parts = inside.split(separator: ":", maxSplits: 1).map(String.init)
                value = Example.Value(entity: parts[0], text: words, value: parts.count > 1 ? parts[1] : nil)
                consumed = after.index(after: end)
            } else if after.first == "{", let end = after.firstIndex(of: "}") {
                let json = after[after.startIndex...end]
                let place = self.mark(of: json, onLineOf: mark)
                let object: [String: JSONValue]
                do {
                    guard let decoded = try JSONText.decode(JSONValue.self, from: String(json)).object else {
                        error(
                            "the annotation \(json) of '\(words)' is not a JSON object", at: place,
                            length: json.unicodeScalars.count)
                        return nil
                    }
                    object = decoded
                } catch {
                    self.error(
                        Diagnostic.Message(
                            "the annotation \(json) of '\(words)' is not JSON; write it as "
                                + "{\"entity\": \"name\", \"value\": \"…\"}"),
                        at: place, length: json.unicodeScalars.count)
                    return nil
                }
                guard case .string(let entity)? = object["entity"] else {
                    error(
                        "the annotation \(json) of '\(words)' names no \"entity\" (a string)", at: place,
                        length: json.unicodeScalars.count)
                    return nil
                }
                value = Example.Value(entity: entity, text: words, value: object["value"]?.string)
                for key in object.keys.sorted() where !["entity", "value"].contains(key) {
                    lost(
                        "the \(key) of '\(words)'",
                        why: "roles and groups have no equivalent; the value goes to the entity's parameter",
                        at: mark)
                }
                consumed = after.index(after: end)
            }
            guard let value else {
                example.pieces.append(.text(String(rest[...close])))
                rest = rest[rest.index(after: close)...]
                continue
            }
            example.pieces.append(.text(String(rest[..<open])))
            example.values.append(value)
            example.pieces.append(.slot(example.values.count - 1))
            rest = after[consumed...]
        }
        example.pieces.append(.text(String(rest)))
        return example
    }
}
