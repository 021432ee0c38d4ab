import Foundation
import IntentLanguage
import IntentModel
import ModelStore
import TestSupport
import Testing

@testable import IntentRuntime

@Suite("Model store: tables from entities, migrations, bad files, locks")
struct StoreTests {
    static func definitions(_ properties: String, extraEntity: String = "") -> String {
        """
        app: Notebook
        entities:
          Page:
            properties:
        \(properties)
            matchBy: [title]
        \(extraEntity)
        intents:
          AddPage:
            parameters:
              title: { type: string }
            phrases: { en: ["add page {title}"] }
            perform:
              - create: Page
                set: { title: "${title}" }
        """
    }

    static let v1 = definitions(
        """
                  title: string
                  words: { type: integer, optional: true }
        """)

    func seed(_ path: String, graph: IntentGraph) throws {
        let store = try Store(path: path, graph: graph, clock: Bundled.clock)
        _ = try store.write { transaction in
            try transaction.insert(
                QualifiedName(app: "Notebook", name: "Page"),
                values: ["title": .string("intro"), "words": .integer(120)])
        }
    }

    func pages(_ path: String, graph: IntentGraph) throws -> [Record] {
        try Store(path: path, graph: graph, clock: Bundled.clock, readOnly: true).read {
            try $0.fetch(RecordQuery(entity: QualifiedName(app: "Notebook", name: "Page")))
        }
    }

    @Test("A new optional or defaulted property and a new entity migrate by themselves")
    func additive() throws {
        let scratch = Scratch()
        try seed(scratch.path, graph: compileGraph(Self.v1))
        let v2 = compileGraph(
            Self.definitions(
                """
                          title: string
                          words: { type: integer, optional: true }
                          pinned: { type: boolean, default: false }
                          summary: { type: string, optional: true }
                """,
                extraEntity: """
                      Tag:
                        properties:
                          name: string
                    """))
        let store = try Store(path: scratch.path, graph: v2, clock: Bundled.clock)
        let records = try pages(scratch.path, graph: v2)
        #expect(records.count == 1)
        #expect(records.first?.values["pinned"] == .boolean(false))
        #expect(records.first?.values["summary"] == nil)
        #expect(records.first?.values["words"] == .integer(120))
        _ = try store.write {
            try $0.insert(QualifiedName(app: "Notebook", name: "Tag"), values: ["name": .string("draft")])
        }
    }

    @Test("A removed property that holds data is refused, naming entity and property; nothing changes")
    func removedPropertyRefused() throws {
        let scratch = Scratch()
        try seed(scratch.path, graph: compileGraph(Self.v1))
        let v2 = compileGraph(
            Self.definitions(
                """
                          title: string
                """))
        #expect {
            _ = try Store(path: scratch.path, graph: v2, clock: Bundled.clock)
        } throws: { error in
            let text = "\(error)"
            return text.contains("Page.words (integer) was removed, but 1 record holds a value")
                && text.contains("Nothing was changed")
        }
        #expect(try pages(scratch.path, graph: compileGraph(Self.v1)).first?.values["words"] == .integer(120))
    }

    @Test("A type change of a property with data is refused; on an empty column it is allowed")
    func typeChange() throws {
        let scratch = Scratch()
        try seed(scratch.path, graph: compileGraph(Self.v1))
        let v2 = compileGraph(
            Self.definitions(
                """
                          title: string
                          words: { type: string, optional: true }
                """))
        #expect {
            _ = try Store(path: scratch.path, graph: v2, clock: Bundled.clock)
        } throws: { error in
            "\(error)".contains("Page.words changed type from integer to string, and 1 record holds a value")
        }
        // An empty column may change type, and then holds values of the new type: made as text,
        // changed to integer, a 5 comes back as the number 5 (a TEXT column would keep "5").
        let empty = Scratch()
        _ = try Store(path: empty.path, graph: v2, clock: Bundled.clock)
        let v1 = compileGraph(Self.v1)
        let store = try Store(path: empty.path, graph: v1, clock: Bundled.clock)
        _ = try store.write {
            try $0.insert(
                QualifiedName(app: "Notebook", name: "Page"), values: ["title": .string("intro"), "words": .integer(5)])
        }
        #expect(try pages(empty.path, graph: v1).first?.values["words"] == .integer(5))
    }

    @Test("A new required property without a default is refused when records exist")
    func newRequiredRefused() throws {
        let scratch = Scratch()
        try seed(scratch.path, graph: compileGraph(Self.v1))
        let v2 = compileGraph(
            Self.definitions(
                """
                          title: string
                          words: { type: integer, optional: true }
                          author: string
                """
            ).replacingOccurrences(of: #"set: { title: "${title}" }"#, with: #"set: { title: "${title}", author: me }"#)
        )
        #expect {
            _ = try Store(path: scratch.path, graph: v2, clock: Bundled.clock)
        } throws: { error in
            "\(error)".contains("Page.author is new and required")
        }
    }

    @Test("A file that is not SQLite, and a read-only file, are refused with a clear reason")
    func unusableFiles() throws {
        let scratch = Scratch()
        let graph = compileGraph(Self.v1)
        try Data("this is a text file, not a database\n".utf8).write(to: URL(fileURLWithPath: scratch.path))
        #expect {
            _ = try Store(path: scratch.path, graph: graph, clock: Bundled.clock)
        } throws: { error in
            "\(error)" == "cannot use the store \(scratch.path): the file is not a SQLite database"
        }
        #expect(try String(contentsOfFile: scratch.path, encoding: .utf8).hasPrefix("this is a text file"))

        let readOnly = Scratch()
        try seed(readOnly.path, graph: graph)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: readOnly.path)
        // root may write anything: the check is on the file's mode, which is what a user means by read-only.
        #expect {
            _ = try Store(path: readOnly.path, graph: graph, clock: Bundled.clock)
        } throws: { error in
            "\(error)".contains("read-only")
        }
        #expect(try pages(readOnly.path, graph: graph).count == 1)
    }

    @Test("A writer blocked by another past the timeout fails cleanly; the holder's write lands")
    func lockedStore() throws {
        let scratch = Scratch()
        let graph = compileGraph(Self.v1)
        let holder = try Store(path: scratch.path, graph: graph, clock: Bundled.clock)
        let waiter = try Store(path: scratch.path, graph: graph, clock: Bundled.clock, busyTimeout: 0.2)
        let page = QualifiedName(app: "Notebook", name: "Page")
        try holder.write { transaction in
            try transaction.insert(page, values: ["title": .string("held")])
            #expect {
                try waiter.write { try $0.insert(page, values: ["title": .string("waiting")]) }
            } throws: { error in
                "\(error)".contains("another process holds the store's lock (waited 0.2 s)")
            }
        }
        #expect(try pages(scratch.path, graph: graph).map { $0.values["title"] } == [.string("held")])
    }

    @Test("Export and import round-trip; a bad record imports nothing")
    func exportImport() throws {
        let source = Scratch()
        let conversation = try source.conversation()
        conversation.say(
            "remind me to call mom tomorrow at 9", "create an urgent task fix the login bug", "track rust as bullish")
        let exported = try conversation.session.store.read { try $0.export() }
        let text = try JSONText.compact(exported)

        let target = Scratch()
        let store = try Store(path: target.path, graph: Bundled.graph, clock: Bundled.clock)
        let decoded = try JSONText.decode(StoreExport.self, from: text)
        #expect(decoded == exported)
        let count = try store.write { try $0.importRecords(decoded) }
        #expect(count == 3)
        #expect(try JSONText.compact(try store.read { try $0.export() }) == text)

        var broken = decoded
        broken.records["FocusBlox.Task"] = [["title": "ok"], ["title": 42]]
        #expect {
            _ = try store.write { try $0.importRecords(broken) }
        } throws: { error in
            "\(error)".contains("FocusBlox.Task[1]: Task.title must be string, not 42")
        }
        #expect(
            try store.read { try $0.fetch(RecordQuery(entity: QualifiedName(app: "FocusBlox", name: "Task"))) }.count
                == 2)
    }

    @Test("Filters compile to SQL and agree with evaluating them record by record")
    func sqlAgreesWithEvaluation() throws {
        let conversation = try Scratch().conversation()
        conversation.say(
            "add water the plants to my tasks", "create an urgent task fix the login bug",
            "remind me to pay rent tomorrow", "add buy milk to my tasks", "complete buy milk")
        let graph = conversation.session.graph
        let task = graph.entities.first { $0.name.name == "Task" }!
        let conditions = [
            "!isCompleted", "urgency == urgent", "due != nil", "due == nil && !isCompleted",
            "title in ['buy milk', 'pay rent']",
            "isCompleted || urgency == urgent", "createdAt <= now()", "lowercase(title) == 'buy milk'",
            "'rent' in title",
        ]
        try conversation.session.store.read { transaction in
            let evaluator = Evaluator(graph: graph, clock: Bundled.clock, app: "FocusBlox", store: transaction)
            let all = try transaction.fetch(RecordQuery(entity: task.name))
            for condition in conditions {
                let filter = try graph.filter(condition, for: task.name)
                let viaQuery = try evaluator.query(
                    IntentGraph.Query(entity: task.name, filter: filter, sort: [], limit: nil), in: [:]
                ).map(\.id)
                let viaEvaluation = try all.filter {
                    try evaluator.evaluate(filter, in: evaluator.scope(of: $0, over: [:])).truthy
                }.map(\.id)
                #expect(Set(viaQuery) == Set(viaEvaluation), "\(condition)")
                #expect(!viaQuery.isEmpty, "\(condition)")
                // Everything but a function over a property runs as SQL.
                let compiled = try QueryCompiler(evaluator: evaluator, entity: task, scope: [:]).filter(filter)
                #expect((compiled != nil) == !condition.hasPrefix("lowercase"), "\(condition)")
            }
        }
    }
}

@Suite("Steps: call, toggle, confirm with a question, find and update lists")
struct StepTests {
    static let definitions = """
        app: Notebook
        entities:
          Page:
            properties:
              title: string
              starred: { type: boolean, default: false }
              views: { type: integer, default: 0 }
            matchBy: [title]
        intents:
          AddPage:
            parameters:
              title: { type: string }
            phrases: { en: ["add page {title}"] }
            perform:
              - create: Page
                set: { title: "${title}" }
                as: page
            result: { value: "${page}", dialog: "Added ${page.title}." }
          Star:
            parameters:
              page: { type: Page }
            phrases: { en: ["star {page}"] }
            perform:
              - update: page
                toggle: [starred]
            result: { dialog: "${page.title} is ${page.starred ? 'starred' : 'not starred'}." }
          AddStarred:
            parameters:
              title: { type: string }
            phrases: { en: ["add starred page {title}"] }
            confirm: "Add ${title} and star it?"
            perform:
              - call: AddPage
                with: { title: "${title}" }
                as: page
              - call: Star
                with: { page: "${page}" }
            result: { dialog: "Added and starred ${title}." }
          ViewAll:
            phrases: { en: ["view all pages"] }
            perform:
              - find: Page
                where: "!starred || views < 2"
                as: pages
              - update: pages
                increment: { views: 2 }
            result: { dialog: "Viewed ${count(pages)} pages." }
        """

    func conversation(_ scratch: Scratch) throws -> Conversation {
        let graph = compileGraph(Self.definitions)
        let session = try Session(
            graph: graph, store: try Store(path: scratch.path, graph: graph, clock: Bundled.clock))
        return Conversation(session: session)
    }

    @Test func callsToggleAndConfirmation() throws {
        let scratch = Scratch()
        let conversation = try conversation(scratch)
        let question = conversation.say("add starred page ideas")
        #expect(question.status == .needsConfirmation)
        #expect(question.dialog == "Add ideas and star it? (yes/no)")
        #expect(conversation.say("yes").dialog == "Added and starred ideas.")
        #expect(conversation.say("star ideas").dialog == "ideas is not starred.")
        #expect(conversation.say("add page notes").status == .done)
        #expect(conversation.say("view all pages").dialog == "Viewed 2 pages.")
        let pages = try conversation.session.store.read {
            try $0.fetch(RecordQuery(entity: QualifiedName(app: "Notebook", name: "Page")))
        }
        #expect(pages.map { $0.values["views"] } == [.integer(2), .integer(2)])
        // One undo takes back the whole of the last intent: both increments.
        _ = try conversation.session.undo()
        let undone = try conversation.session.store.read {
            try $0.fetch(RecordQuery(entity: QualifiedName(app: "Notebook", name: "Page")))
        }
        #expect(undone.map { $0.values["views"] } == [.integer(0), .integer(0)])
    }
}

@Suite("Two intents fit one phrase equally")
struct AmbiguityTests {
    @Test func askWhichAndRunTheChosenOne() throws {
        func app(_ name: String, _ dialog: String) -> (path: String, bytes: [UInt8]) {
            let yaml = """
                app: \(name)
                intents:
                  Start:
                    phrases: { en: ["start the timer"] }
                    result: { dialog: "\(dialog)" }
                """
            return (path: "test/\(name.lowercased())/app.yaml", bytes: Array(yaml.utf8))
        }
        let compilation = IntentCompiler.compile(
            files: [app("Kitchen", "Kitchen timer started."), app("Gym", "Gym timer started.")], root: "test")
        let graph = try #require(compilation.graph)
        let scratch = Scratch()
        let session = try Session(
            graph: graph, store: try Store(path: scratch.path, graph: graph, clock: Bundled.clock))
        let conversation = Conversation(session: session)
        let question = conversation.say("start the timer")
        #expect(question.status == .needsDisambiguation)
        #expect(question.choices == ["Start in Gym", "Start in Kitchen"])
        #expect(conversation.say("2").dialog == "Kitchen timer started.")
        // Naming the app settles it without a question.
        #expect(conversation.say("start the timer in gym").dialog == "Gym timer started.")
    }
}
