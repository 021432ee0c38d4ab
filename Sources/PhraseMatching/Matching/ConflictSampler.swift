import IntentModel

extension Diagnostic.Message {
    static func sampleMatchesOther(_ sentence: String, _ own: QualifiedName, _ other: QualifiedName) -> Self {
        "'\(sentence)', a sentence of '\(own.name)', matches '\(other)' as well or better"
    }
}

/// Compile-time conflict detection: sentences sampled from each intent's templates, with sample
/// values in their slots, must match their own intent better than any other.
public enum ConflictSampler {
    /// Sentences sampled per phrase template.
    public static let samplesPerPhrase = 24

    public static func check(_ graph: IntentGraph, matcher: Matcher) -> [Diagnostic] {
        let index = matcher.index
        var diagnostics: [Diagnostic] = index.skippedTemplates.map { skipped in
            Diagnostic(
                .warning,
                "this phrase expands to more than \(PhraseIndex.expansionLimit) sentences and is not matched; split it into several phrases",
                at: skipped.phrase.location)
        }
        var reported: Set<String> = []
        for app in graph.apps {
            for intent in app.intents {
                for phrase in intent.phrases {
                    for sentence in samples(of: phrase, intent: intent, app: app, graph: graph) {
                        let recognition = matcher.recognize(sentence, language: phrase.language)
                        let own = recognition.candidates.first { $0.intent == intent.name }
                        guard let rival = recognition.candidates.first(where: { $0.intent != intent.name }),
                            own == nil || rival.score >= own!.score
                        else { continue }
                        if let own, decidedByNames(own, rival, graph: graph) { continue }
                        let key = "\(intent.name)|\(rival.intent)"
                        guard reported.insert(key).inserted else { continue }
                        let rivalIntent = graph.intent(rival.intent)
                        let rivalPhrase =
                            rivalIntent?.phrases.first { $0.template.source == rival.template }
                            ?? graph.app(named: rival.intent.app)?.shortcuts.flatMap(\.phrases).first {
                                $0.template.source == rival.template
                            }
                        diagnostics.append(
                            Diagnostic(
                                .warning, .sampleMatchesOther(sentence, intent.name, rival.intent), at: phrase.location,
                                notes: [
                                    Diagnostic.Note(
                                        "'\(rival.intent.name)' takes it with this phrase", at: rivalPhrase?.location)
                                ]))
                    }
                }
            }
        }
        return diagnostics
    }

    /// Whether two equally good readings differ only in which entity the same words name ("delete
    /// {task}" and "delete {radar}"): the store's names decide at run time, since a slot naming a
    /// record of one entity and not the other is resolved and the other is not, and words naming
    /// neither are asked about ("Which did you mean?"). No clash the author has to fix.
    static func decidedByNames(_ own: Candidate, _ rival: Candidate, graph: IntentGraph) -> Bool {
        guard own.score == rival.score else { return false }
        func entityType(_ slot: Candidate.Slot, of candidate: Candidate) -> QualifiedName? {
            graph.intent(candidate.intent)?.parameter(slot.name)?.type.entityName
        }
        let ownNames = own.slots.filter(\.entity), rivalNames = rival.slots.filter(\.entity)
        guard !ownNames.isEmpty, ownNames.map(\.span) == rivalNames.map(\.span) else { return false }
        let differ = zip(ownNames, rivalNames).allSatisfy { mine, theirs in
            guard let a = entityType(mine, of: own), let b = entityType(theirs, of: rival) else { return false }
            return a != b
        }
        let rest = { (slots: [Candidate.Slot]) in
            slots.filter { !$0.entity }.map { "\($0.name)=\($0.value.description)@\($0.span)" }
        }
        return differ && rest(own.slots) == rest(rival.slots)
    }

    /// Up to `samplesPerPhrase` sentences of a template, spread over its expansions, slots filled.
    static func samples(
        of phrase: IntentGraph.Phrase, intent: IntentGraph.Intent, app: IntentGraph.App, graph: IntentGraph
    ) -> [String] {
        guard let sentences = phrase.template.expansions(rules: app.rules, limit: PhraseIndex.expansionLimit),
            !sentences.isEmpty
        else { return [] }
        let step = max(1, sentences.count / samplesPerPhrase)
        return stride(from: 0, to: sentences.count, by: step).prefix(samplesPerPhrase).map { index in
            sentences[index].map { piece -> String in
                switch piece {
                case .word(let word): word
                case .app: app.name
                case .slot(let name):
                    sampleValue(intent.parameter(name)?.type ?? .string, graph: graph, language: phrase.language)
                }
            }.joined(separator: " ")
        }
    }

    static func sampleValue(_ type: ValueType, graph: IntentGraph, language: String) -> String {
        switch type {
        case .string, .entity: language == "de" ? "Beispieltext" : "sample text"
        case .integer, .number: "7"
        case .boolean: "yes"
        case .date: language == "de" ? "morgen" : "tomorrow"
        case .duration: language == "de" ? "fünf minuten" : "five minutes"
        case .url: "https://example.com"
        case .enumeration(let name): graph.enumeration(name)?.cases.first?.title ?? "x"
        case .array(let element): sampleValue(element, graph: graph, language: language)
        }
    }
}
