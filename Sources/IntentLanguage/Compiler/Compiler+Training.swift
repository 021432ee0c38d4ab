import IntentModel

extension Diagnostic.Message {
    static let trainingMark: Self = "a value in a training sentence is marked [words](slot)"
    static func thresholdRange(_ name: String) -> Self { "'\(name)' is a confidence from 0 to 1" }
    static let thresholdOrder: Self = "'ask' must not be above 'act': below 'ask' is no match, from 'act' on it runs"
}

extension Compiler {
    /// `training:` sentences, each `[words](slot)` checked against the parameters and reduced to its
    /// pieces: "book a table for [four](partySize)" → "book a table for " and "four" (partySize).
    mutating func compileTraining(_ sentences: [Located<String>], parameters: [IntentGraph.Parameter])
        -> [IntentGraph.TrainingSentence]
    {
        sentences.compactMap { sentence in
            let scalars = Array(sentence.value.unicodeScalars)
            var text = String.UnicodeScalarView()
            var pieces: [IntentGraph.TrainingSentence.Piece] = []
            var position = 0
            var failed = false
            while position < scalars.count {
                guard scalars[position] == "[" else {
                    if scalars[position] == "]" {
                        diagnostics.error(.trainingMark, at: locate(sentence, position..<(position + 1)))
                        failed = true
                    }
                    text.append(scalars[position])
                    position += 1
                    continue
                }
                // [words](slot)
                let open = position
                guard let close = scalars[open...].firstIndex(of: "]"), close + 1 < scalars.count,
                    scalars[close + 1] == "(", let end = scalars[(close + 1)...].firstIndex(of: ")")
                else {
                    diagnostics.error(.trainingMark, at: locate(sentence, open..<(open + 1)))
                    failed = true
                    break
                }
                let name = String(String.UnicodeScalarView(scalars[(close + 2)..<end]))
                if !parameters.contains(where: { $0.name == name }) {
                    diagnostics.unknown(
                        "slot", name, at: locate(sentence, (close + 2)..<end), known: parameters.map(\.name))
                    failed = true
                }
                if !text.isEmpty { pieces.append(.init(text: String(text))) }
                pieces.append(.init(text: String(String.UnicodeScalarView(scalars[(open + 1)..<close])), slot: name))
                text = String.UnicodeScalarView()
                position = end + 1
            }
            if !text.isEmpty { pieces.append(.init(text: String(text))) }
            return failed ? nil : IntentGraph.TrainingSentence(pieces: pieces)
        }
    }

    /// An app's `understanding:` over all its files: `act` and `ask`, each from 0 to 1, ask ≤ act.
    mutating func compileUnderstanding(app: AppDeclaration) -> IntentGraph.Understanding {
        var understanding = IntentGraph.Understanding()
        for (name, value) in app.files.flatMap(\.understanding) {
            guard (0...1).contains(value.value) else {
                diagnostics.error(.thresholdRange(name.value), at: value.range)
                continue
            }
            switch name.value {
            case "act": understanding.act = value.value
            case "ask": understanding.ask = value.value
            default: diagnostics.unknown("threshold", name.value, at: name.range, known: ["act", "ask"])
            }
        }
        if let act = understanding.act, let ask = understanding.ask, ask > act,
            let location = app.files.flatMap(\.understanding).first?.name.range
        {
            diagnostics.error(.thresholdOrder, at: location)
        }
        return understanding
    }
}
