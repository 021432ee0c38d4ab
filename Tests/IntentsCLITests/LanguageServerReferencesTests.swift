import Foundation
import Testing

/// Issue 23, `intents lsp`: find references, rename, and completion inside expressions and of
/// `<rule>` names, driven through the binary's stdio like an editor.
struct LanguageServerReferencesTests {
    let scratch = ScratchDirectory("lsp-references")
    var directory: String { scratch.path }
    var appFile: String { directory + "/Intents/shop/app.yaml" }
    var moreFile: String { directory + "/Intents/shop/more.yaml" }
    var shortcutFile: String { directory + "/Shortcuts/weekly.yaml" }
    typealias Client = LanguageServerTests.Client

    static let app = """
        app: Shop
        scheme: shop
        languages: [en]

        enums:
          Size:
            cases: { small: Small, large: Large }

        entities:
          Item:
            properties:
              title: string
              size: { type: Size, default: small }
              isDone: { type: boolean, default: false }
            display: { title: "${title}" }
            matchBy: [title]

        rules:
          please: "[please]"

        intents:
          AddItem:
            title: Add Item
            parameters:
              title: { type: string, prompt: "What should I add?" }
              size: { type: Size, optional: true }
            summary: "Add ${title}"
            phrases:
              - "<please> add {title} to {app}"
              - "<please> put {title} on {app}"
            perform:
              - create: Item
                set: { title: "${title}" }
                as: item
            result:
              value: "${item}"
              dialog: "Added ${title} ${size}."
            examples:
              - say: "add milk to shop"
                expect: { title: milk }
          CountItems:
            title: Count Items
            phrases: ["how many items are in {app}"]
            result:
              dialog: "${count(Item)} items."
            examples:
              - { say: "how many items are in shop" }

        """

    static let more = """
        intents:
          AddTwice:
            title: Add Twice
            parameters:
              title: string
            phrases: ["add {title} twice to {app}"]
            perform:
              - call: AddItem
                with: { title: "${title}" }
              - call: Shop.AddItem
                with: { title: "${title}" }
            examples:
              - { say: "add milk twice to shop", expect: { title: milk } }
          CountOpen:
            title: Count Open
            phrases: ["how many open items in {app}"]
            perform:
              - find: Item
                where: "!isDone && title != ''"
                as: open
            result:
              dialog: "${count(open)} open."
            examples:
              - { say: "how many open items in shop" }

        widgets:
          Open:
            title: Open
            families: [small]
            content:
              title: "Shop"
              value: "${count(Item where !isDone)}"
            buttons:
              - { title: "Add", intent: AddItem, with: { title: "bread" } }

        controls:
          Quick:
            title: Quick
            action: { intent: AddItem, with: { title: milk } }

        links:
          - { url: "shop://add?title={title}", intent: AddItem }

        """

    static let shortcut = """
        shortcut: Weekly
        steps:
          - intent: Shop.AddItem
            with: { title: eggs }

        """

    func uri(_ path: String) -> String { URL(fileURLWithPath: path).absoluteString }

    func start() throws -> Client {
        try FileManager.default.createDirectory(atPath: directory + "/Intents/shop", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/Shortcuts", withIntermediateDirectories: true)
        try Self.app.write(toFile: appFile, atomically: true, encoding: .utf8)
        try Self.more.write(toFile: moreFile, atomically: true, encoding: .utf8)
        try Self.shortcut.write(toFile: shortcutFile, atomically: true, encoding: .utf8)
        let check = try CommandLineTests.intents(["check"], in: directory)
        #expect(check.status == 0 && check.stderr.isEmpty, "the fixture is a valid project: \(check.stderr)")
        let client = try Client(in: directory)
        let initialize = try client.request(
            "initialize", ["processId": NSNull(), "rootUri": uri(directory), "capabilities": [String: Any]()])
        let capabilities = (initialize["result"] as? [String: Any])?["capabilities"] as? [String: Any]
        #expect(capabilities?["referencesProvider"] as? Bool == true)
        #expect((capabilities?["renameProvider"] as? [String: Any])?["prepareProvider"] as? Bool == true)
        try client.notify("initialized", [:])
        try client.notify(
            "textDocument/didOpen",
            ["textDocument": ["uri": uri(appFile), "languageId": "yaml", "version": 1, "text": Self.app]])
        #expect(try client.diagnostics(for: appFile).isEmpty)
        return client
    }

    func request(
        _ client: Client, _ method: String, _ path: String, _ position: [String: Int], _ extra: [String: Any] = [:]
    )
        throws -> [String: Any]
    {
        var params: [String: Any] = ["textDocument": ["uri": uri(path)], "position": position]
        params.merge(extra) { $1 }
        return try client.request(method, params)
    }

    /// Each location as `file:line: the line's text`, after checking the range holds `name`.
    func lines(_ result: Any?, holding name: String) throws -> [String] {
        let texts = [uri(appFile): Self.app, uri(moreFile): Self.more, uri(shortcutFile): Self.shortcut]
        return try (result as? [[String: Any]] ?? []).map { location in
            let fileURI = try #require(location["uri"] as? String)
            let range = try #require(location["range"] as? [String: [String: Int]])
            let line = try #require(range["start"]?["line"])
            let text = try #require(texts[fileURI]).components(separatedBy: "\n")[line]
            let utf16 = Array(text.utf16)
            let start = try #require(range["start"]?["character"]), end = try #require(range["end"]?["character"])
            #expect(String(decoding: utf16[start..<end], as: UTF16.self) == name, "\(fileURI):\(line): \(text)")
            return
                "\((fileURI as NSString).lastPathComponent):\(line + 1): \(text.trimmingCharacters(in: .whitespaces))"
        }
    }

    @Test("References of a parameter: its slots, summary, ${…} uses and the arguments other files give it")
    func parameterReferences() throws {
        let client = try start()
        let slot = try LanguageServerTests.position(of: "{title} to {app}", in: Self.app, offset: 2)
        let result = try request(
            client, "textDocument/references", appFile, slot, ["context": ["includeDeclaration": true]])
        let parameterUses = try lines(result["result"], holding: "title")
        #expect(
            parameterUses == [
                "app.yaml:25: title: { type: string, prompt: \"What should I add?\" }",
                "app.yaml:27: summary: \"Add ${title}\"",
                "app.yaml:29: - \"<please> add {title} to {app}\"",
                "app.yaml:30: - \"<please> put {title} on {app}\"",
                "app.yaml:33: set: { title: \"${title}\" }",
                "app.yaml:37: dialog: \"Added ${title} ${size}.\"",
                "app.yaml:40: expect: { title: milk }",
                "more.yaml:9: with: { title: \"${title}\" }",
                "more.yaml:11: with: { title: \"${title}\" }",
                "more.yaml:34: - { title: \"Add\", intent: AddItem, with: { title: \"bread\" } }",
                "more.yaml:39: action: { intent: AddItem, with: { title: milk } }",
                "more.yaml:42: - { url: \"shop://add?title={title}\", intent: AddItem }",
                "weekly.yaml:4: with: { title: eggs }",
            ], "\(parameterUses)")
        // Without the declaration, from the declaration itself.
        let declaration = try LanguageServerTests.position(of: "title: { type: string", in: Self.app, offset: 1)
        let uses = try request(
            client, "textDocument/references", appFile, declaration, ["context": ["includeDeclaration": false]])
        #expect(try lines(uses["result"], holding: "title").count == 12)
        // An unsaved edit in another file is seen: only that file is read again.
        let edited = Self.more.replacingOccurrences(
            of: "    action: { intent: AddItem, with: { title: milk } }\n",
            with:
                "    action: { intent: AddItem, with: { title: milk } }\n  Again:\n    action: { intent: AddItem, with: { title: jam } }\n"
        )
        #expect(edited != Self.more)
        try client.notify(
            "textDocument/didOpen",
            ["textDocument": ["uri": uri(moreFile), "languageId": "yaml", "version": 1, "text": edited]])
        let again = try request(
            client, "textDocument/references", appFile, declaration, ["context": ["includeDeclaration": false]])
        #expect((again["result"] as? [Any])?.count == 13)
    }

    @Test("References of a type and of an intent, across files and into shortcut files")
    func typeAndIntentReferences() throws {
        let client = try start()
        let type = try LanguageServerTests.position(of: "create: Item", in: Self.app, offset: 9)
        let types = try request(
            client, "textDocument/references", appFile, type, ["context": ["includeDeclaration": true]])
        let typeUses = try lines(types["result"], holding: "Item")
        #expect(
            typeUses == [
                "app.yaml:10: Item:", "app.yaml:32: - create: Item", "app.yaml:45: dialog: \"${count(Item)} items.\"",
                "more.yaml:18: - find: Item",
                "more.yaml:32: value: \"${count(Item where !isDone)}\"",
            ], "\(typeUses)")
        let intent = try LanguageServerTests.position(of: "AddItem:", in: Self.app, offset: 3)
        let intents = try request(
            client, "textDocument/references", appFile, intent, ["context": ["includeDeclaration": true]])
        let intentUses = try lines(intents["result"], holding: "AddItem")
        #expect(
            intentUses == [
                "app.yaml:22: AddItem:", "more.yaml:8: - call: AddItem", "more.yaml:10: - call: Shop.AddItem",
                "more.yaml:34: - { title: \"Add\", intent: AddItem, with: { title: \"bread\" } }",
                "more.yaml:39: action: { intent: AddItem, with: { title: milk } }",
                "more.yaml:42: - { url: \"shop://add?title={title}\", intent: AddItem }",
                "weekly.yaml:3: - intent: Shop.AddItem",
            ], "\(intentUses)")
    }

    /// The texts after applying a WorkspaceEdit's changes.
    func apply(_ edit: [String: Any]) throws -> [String: String] {
        let changes = try #require(edit["changes"] as? [String: [[String: Any]]])
        var texts: [String: String] = [:]
        for (fileURI, edits) in changes {
            let path = try #require(URL(string: fileURI)?.path)
            var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n").map {
                Array($0.utf16)
            }
            let sorted = edits.sorted {
                let a = ($0["range"] as? [String: [String: Int]])?["start"] ?? [:],
                    b = ($1["range"] as? [String: [String: Int]])?["start"] ?? [:]
                return (a["line"] ?? 0, a["character"] ?? 0) > (b["line"] ?? 0, b["character"] ?? 0)
            }
            for edit in sorted {
                let range = try #require(edit["range"] as? [String: [String: Int]])
                let line = try #require(range["start"]?["line"])
                #expect(range["end"]?["line"] == line)
                let start = try #require(range["start"]?["character"]), end = try #require(range["end"]?["character"])
                lines[line].replaceSubrange(start..<end, with: Array((edit["newText"] as? String ?? "").utf16))
            }
            texts[path] = lines.map { String(decoding: $0, as: UTF16.self) }.joined(separator: "\n")
        }
        return texts
    }

    @Test("Rename a parameter everywhere it is used; the project still checks clean")
    func renameParameter() throws {
        let client = try start()
        let slot = try LanguageServerTests.position(of: "{title} on {app}", in: Self.app, offset: 3)
        let prepared = try request(client, "textDocument/prepareRename", appFile, slot)["result"] as? [String: Any]
        #expect(prepared?["placeholder"] as? String == "title")
        let edit = try #require(
            try request(client, "textDocument/rename", appFile, slot, ["newName": "name"])["result"] as? [String: Any])
        let texts = try apply(edit)
        #expect(Set(texts.keys) == [appFile, moreFile, shortcutFile])
        for (path, text) in texts { try text.write(toFile: path, atomically: true, encoding: .utf8) }
        let app = try #require(texts[appFile])
        #expect(app.contains("summary: \"Add ${name}\"") && app.contains("- \"<please> add {name} to {app}\""))
        #expect(app.contains("title: string"), "the entity's property keeps its name")
        #expect(app.contains("set: { title: \"${name}\" }"))
        #expect(
            try #require(texts[moreFile]).contains("where: \"!isDone && title != ''\""), "a where: names properties")
        #expect(try #require(texts[moreFile]).contains("with: { name: \"${title}\" }"), "AddTwice's own title stays")
        let check = try CommandLineTests.intents(["check"], in: directory)
        #expect(check.status == 0 && check.stderr.isEmpty, "\(check.stderr)")
    }

    @Test("Rename an intent across definition and shortcut files")
    func renameIntent() throws {
        let client = try start()
        let call = try LanguageServerTests.position(of: "call: Shop.AddItem", in: Self.more, offset: 13)
        let edit = try #require(
            try request(client, "textDocument/rename", moreFile, call, ["newName": "PutItem"])["result"]
                as? [String: Any])
        let texts = try apply(edit)
        for (path, text) in texts { try text.write(toFile: path, atomically: true, encoding: .utf8) }
        #expect(try #require(texts[shortcutFile]).contains("- intent: Shop.PutItem"))
        #expect(try #require(texts[appFile]).contains("  PutItem:\n"))
        let check = try CommandLineTests.intents(["check"], in: directory)
        #expect(check.status == 0 && check.stderr.isEmpty, "\(check.stderr)")
    }

    @Test(
        "A rename to a name that is taken or is no name is refused with an error; nowhere to rename is null",
        arguments: [
            ("size", "'AddItem' already has a parameter 'size'"),
            ("two words", "'two words' is not a name: a letter or '_', then letters, digits or '_'"),
            ("app", "'app' names the app in phrases; a parameter cannot be called so"),
        ])
    func renameRefused(newName: String, message: String) throws {
        let client = try start()
        let slot = try LanguageServerTests.position(of: "{title} to {app}", in: Self.app, offset: 2)
        let error =
            try request(client, "textDocument/rename", appFile, slot, ["newName": newName])["error"] as? [String: Any]
        #expect(error?["code"] as? Int == -32803)
        #expect(error?["message"] as? String == message)
        let word = try LanguageServerTests.position(of: "add {title} to", in: Self.app, offset: 1)
        #expect(try request(client, "textDocument/prepareRename", appFile, word)["result"] is NSNull)
    }

    func labels(_ client: Client, _ text: String, at needle: String, offset: Int, in path: String? = nil) throws
        -> [String]
    {
        let path = path ?? moreFile
        try client.notify(
            "textDocument/didChange",
            ["textDocument": ["uri": uri(path), "version": 2], "contentChanges": [["text": text]]])
        let position = try LanguageServerTests.position(of: needle, in: text, offset: offset)
        let result = try request(client, "textDocument/completion", path, position)["result"]
        return (result as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
    }

    @Test("Completion inside where:, ${…} and conditions, and of <rule> names in phrases")
    func expressionCompletion() throws {
        let client = try start()
        try client.notify(
            "textDocument/didOpen",
            ["textDocument": ["uri": uri(moreFile), "languageId": "yaml", "version": 1, "text": Self.more]])
        // where: the found entity's properties.
        let properties = try labels(client, Self.more, at: "title != ''", offset: 0)
        #expect(
            properties.contains("title") && properties.contains("isDone") && properties.contains("size"),
            "\(properties)")
        #expect(!properties.contains("open"))
        // ${…}: the intent's parameters; after a parameter's or binding's name and '.', its members.
        let hole = Self.more.replacingOccurrences(of: "\"${count(open)} open.\"", with: "\"${count(open)} open, ${")
        let names = try labels(client, hole, at: "open, ${", offset: 8)
        #expect(names == ["open"], "\(names)")
        let member = Self.app.replacingOccurrences(of: "Added ${title} ${size}.", with: "Added ${item.}")
        let members = try labels(client, member, at: "${item.}", offset: 7, in: appFile)
        #expect(members.contains("title") && members.contains("isDone") && !members.contains("item"), "\(members)")
        let enumeration = Self.app.replacingOccurrences(of: "Added ${title} ${size}.", with: "Added ${Size.}")
        #expect(try labels(client, enumeration, at: "${Size.}", offset: 7, in: appFile) == ["small", "large"])
        let parameters = Self.app.replacingOccurrences(of: "Added ${title} ${size}.", with: "Added ${t}")
        #expect(try labels(client, parameters, at: "${t}", offset: 3, in: appFile) == ["title", "size", "item"])
        let condition = Self.more.replacingOccurrences(
            of: "      - call: AddItem\n", with: "      - if: \"ti\"\n        then: []\n      - call: AddItem\n")
        #expect(try labels(client, condition, at: "if: \"ti", offset: 7) == ["title"])
        let query = Self.more.replacingOccurrences(of: "${count(Item where !isDone)}", with: "${count(Item where !)}")
        let inQuery = try labels(client, query, at: "where !)", offset: 7)
        #expect(inQuery.contains("isDone") && inQuery.contains("title"), "\(inQuery)")
        // <rule> names inside a phrase.
        let rule = Self.more.replacingOccurrences(
            of: "[\"add {title} twice to {app}\"]", with: "[\"<ple add {title} twice to {app}\"]")
        #expect(try labels(client, rule, at: "<ple", offset: 4) == ["please"])
    }
}
