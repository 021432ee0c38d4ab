/// Reads phrase templates (ours, and hassil's, which share the syntax) to list their slots and
/// to write one sentence each says, for the imported examples.
enum TemplateSampler {
    indirect enum Item {
        case word(String)
        /// `{list}` or `{list@slot}` (hassil's `{list:slot}`, renamed while converting).
        case slot(list: String, name: String)
        case rule(String)
        case alternatives([[Item]], optional: Bool)
    }

    static func parse(_ text: String) -> [Item] {
        var position = 0
        return parseItems(Array(text), &position, closing: nil)
    }

    private static func parseItems(_ characters: [Character], _ position: inout Int, closing: Character?) -> [Item] {
        var items: [Item] = []
        var word = ""
        func flush() {
            if !word.isEmpty { items.append(.word(word)) }
            word = ""
        }
        while position < characters.count {
            let character = characters[position]
            switch character {
            case "(", "[":
                flush()
                position += 1
                var alternatives: [[Item]] = []
                let close: Character = character == "(" ? ")" : "]"
                while true {
                    alternatives.append(parseItems(characters, &position, closing: close))
                    if position < characters.count, characters[position] == "|" {
                        position += 1
                        continue
                    }
                    position += 1  // the closing bracket
                    break
                }
                items.append(.alternatives(alternatives, optional: character == "["))
                continue
            case ")", "]", "|":
                if closing != nil {
                    flush()
                    return items
                }
            case "{", "<":
                flush()
                let close: Character = character == "{" ? "}" : ">"
                var name = ""
                position += 1
                while position < characters.count, characters[position] != close {
                    name.append(characters[position])
                    position += 1
                }
                if character == "<" {
                    items.append(.rule(name))
                } else {
                    let parts = name.split(separator: "@", maxSplits: 1).map(String.init)
                    items.append(
                        .slot(list: parts.first ?? name, name: parts.count > 1 ? parts[1] : parts.first ?? name))
                }
            case " ":
                flush()
            default:
                word.append(character)
            }
            position += 1
        }
        flush()
        return items
    }

    /// Every slot the template (and the rules it uses) has.
    static func slots(_ items: [Item], rules: [(name: String, template: String)], depth: Int = 0) -> [(
        list: String, name: String
    )] {
        guard depth < 8 else { return [] }
        var found: [(list: String, name: String)] = []
        for item in items {
            switch item {
            case .word: break
            case .slot(let list, let name): found.append((list, name))
            case .rule(let rule):
                if let template = rules.first(where: { $0.name == rule })?.template {
                    found += slots(parse(template), rules: rules, depth: depth + 1)
                }
            case .alternatives(let alternatives, _):
                for alternative in alternatives { found += slots(alternative, rules: rules, depth: depth) }
            }
        }
        return found
    }

    /// One sentence the template says: first alternatives, optionals left out, slots filled by `value`.
    static func sample(
        _ items: [Item], rules: [(name: String, template: String)], depth: Int = 0,
        value: (_ slot: (list: String, name: String)) -> String
    ) -> String {
        guard depth < 8 else { return "" }
        var words: [String] = []
        for item in items {
            switch item {
            case .word(let word): words.append(word)
            case .slot(let list, let name): words.append(value((list, name)))
            case .rule(let rule):
                if let template = rules.first(where: { $0.name == rule })?.template {
                    words.append(sample(parse(template), rules: rules, depth: depth + 1, value: value))
                }
            case .alternatives(let alternatives, let optional):
                if !optional, let first = alternatives.first {
                    words.append(sample(first, rules: rules, depth: depth, value: value))
                }
            }
        }
        return words.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The template with each slot named by its parameter: `{list@slot}` and `{list}` → `{slot}`.
    static func ourTemplate(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out += rest[..<open]
            let inside = rest[rest.index(after: open)..<close]
            let name = inside.split(separator: "@", maxSplits: 1).last.map(String.init) ?? String(inside)
            out += "{\(name == "app" ? "app" : Names.parameterName(name))}"
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// `(a;b)` → `(a b|b a)`, for up to three parts; nil when a permutation has more.
    static func expandPermutations(_ text: String) -> String? {
        var out = text
        while let semicolon = out.firstIndex(of: ";") {
            guard let open = out[..<semicolon].lastIndex(of: "("), let close = out[semicolon...].firstIndex(of: ")")
            else {
                return nil
            }
            let parts = out[out.index(after: open)..<close].split(separator: ";").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard parts.count <= 3 else { return nil }
            let orders = permutations(parts).map { $0.joined(separator: " ") }
            out.replaceSubrange(open...close, with: "(" + orders.joined(separator: "|") + ")")
        }
        return out
    }

    private static func permutations(_ parts: [String]) -> [[String]] {
        guard parts.count > 1 else { return [parts] }
        var all: [[String]] = []
        for (index, part) in parts.enumerated() {
            var rest = parts
            rest.remove(at: index)
            for tail in permutations(rest) { all.append([part] + tail) }
        }
        return all
    }
}
