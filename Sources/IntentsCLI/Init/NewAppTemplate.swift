import IntentModel

/// The definitions `intents init` writes: one app with an entity, one intent with phrases and
/// examples, an App Shortcut and a widget, valid for any name `NewAppTemplate.validate` accepts.
struct NewAppTemplate {
    /// The app's name as declared (`app: Groceries`).
    let name: String

    /// The name as a person says it: "groceries", or "packing list" for `PackingList`.
    var spoken: String {
        var words: [String] = []
        var current = ""
        for character in name {
            if character.isUppercase, !current.isEmpty, current.last.map({ !$0.isUppercase }) ?? false {
                words.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words.joined(separator: " ").lowercased()
    }

    /// The folder under the definitions directory: the name in lower case.
    var folder: String { name.lowercased() }

    /// Why `name` cannot name an app, or nil when it can: a letter, then letters or digits.
    static func problem(with name: String) -> String? {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else {
            return "an app's name starts with a letter (A–Z), like Groceries or PackingList"
        }
        guard name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) })
        else {
            return "an app's name is one word of letters and digits, like Groceries or PackingList"
        }
        guard name.count <= 40 else { return "an app's name has at most 40 characters" }
        return nil
    }

    /// The sentences the examples and the README's transcript use.
    var sampleSentence: String { "add milk to \(spoken)" }

    /// `app.yaml`: the whole app.
    var appYAML: String {
        let synonyms = spoken == name.lowercased() ? "" : "synonyms: [\(spoken)]\n"
        return """
            # \(name), made by `intents init`. Change anything: `intents check` says what is wrong,
            # `intents test` runs the examples, `intents say "\(sampleSentence)"` tries a phrase.
            app: \(name)
            description: Keep a list of things to remember.
            \(synonyms)languages: [en]

            entities:
              Item:
                properties:
                  title: string
                  isDone: { type: boolean, default: false }
                display: { title: "${title}", image: checklist }
                matchBy: [title]
                suggested: { where: "!isDone", sort: -createdAt, limit: 5 }

            intents:
              AddItem:
                title: Add Item
                description: Put something on the list.
                parameters:
                  title: { type: string, prompt: "What should I add?" }
                summary: "Add ${title}"
                phrases:
                  - "(add|put) {title} (to|on) [my] {app} [list]"
                  - "remember {title} in {app}"
                perform:
                  - create: Item
                    set: { title: "${title}" }
                    as: item
                result:
                  value: "${item}"
                  dialog: "Added “${item.title}”."
                examples:
                  - say: "\(sampleSentence)"
                    expect: { title: milk }
                  - say: "put fresh bread on my \(spoken) list"
                    expect: { title: fresh bread }
                  - say: "remember the umbrella in \(spoken)"
                    expect: { title: the umbrella }

            shortcuts:
              - intent: AddItem
                phrases: ["Add something to {app}"]
                shortTitle: Add Item
                image: plus.circle

            widgets:
              OpenItems:
                title: Open Items
                description: What is still on the list.
                image: checklist
                families: [small, medium]
                relevance:
                  - { when: "exists(Item where !isDone)", score: 20 }
                content:
                  title: "\(name)"
                  value: "${count(Item where !isDone)}"
                  label: "open"
                  items: "Item where !isDone sort -createdAt limit 5"
                  line: "${item.title}"
                  empty: "Nothing yet. Say “\(sampleSentence)”."

            """
    }
}
