import Foundation
import IntentModel
import Testing

@testable import IntentLanguage

/// The JSON Schemas `intents schema` prints: the bundled files validate against them (checked by
/// python3's jsonschema when it is installed), and their shape agrees with what the decoders read.
struct SchemaTests {
    /// Validates YAML files against a schema with python3; prints one line per problem.
    static let validator = """
        import json, sys, yaml
        from jsonschema import Draft202012Validator
        schema = json.load(open(sys.argv[1]))
        Draft202012Validator.check_schema(schema)
        validator = Draft202012Validator(schema)
        for path in sys.argv[2:]:
            with open(path) as f:
                document = yaml.safe_load(f)
            for error in validator.iter_errors(document):
                print(f"{path}: {'/'.join(map(str, error.absolute_path))}: {error.message}")
        """

    static let pythonHasJSONSchema: Bool = (try? python(["-c", "import jsonschema, yaml"]).status) == 0

    static func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// The problems python3 finds in `files` against the schema of `document`.
    static func validate(_ files: [String], against document: DefinitionSchema.Document) throws -> String {
        let schema = NSTemporaryDirectory() + "intents-schema-\(UUID().uuidString).json"
        try DefinitionSchema.jsonSchema(for: document).write(toFile: schema, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: schema) }
        let run = try python(["-c", validator, schema] + files)
        return run.status == 0 ? run.output : "python3 failed: \(run.output)"
    }

    static func yamlFiles(under folder: String) -> [String] {
        let paths = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        return paths.filter { $0.hasSuffix(".yaml") }.sorted().map { folder + "/" + $0 }
    }

    @Test(.enabled(if: pythonHasJSONSchema, "needs python3 with jsonschema and PyYAML"))
    func bundledShortcutFilesValidate() throws {
        let files = Self.yamlFiles(under: Paths.root + "/Shortcuts")
        #expect(files.count >= 5)
        #expect(try Self.validate(files, against: .shortcuts) == "")
    }

    @Test(.enabled(if: pythonHasJSONSchema, "needs python3 with jsonschema and PyYAML"))
    func bundledDefinitionFilesValidate() throws {
        let files = Self.yamlFiles(under: Paths.intents)
        #expect(files.count >= 4)
        #expect(try Self.validate(files, against: .definitions) == "")
    }

    @Test(.enabled(if: pythonHasJSONSchema, "needs python3 with jsonschema and PyYAML"))
    func aBrokenShortcutFileDoesNotValidate() throws {
        let file = NSTemporaryDirectory() + "intents-broken-\(UUID().uuidString).yaml"
        try "shortcut: Broken\nsteps:\n  - sya: hi\n  - show: hi\n    do: []\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let problems = try Self.validate([file], against: .shortcuts)
        #expect(problems.contains("steps/0"))
        #expect(problems.contains("steps/1"))
    }

    @Test func eachShortcutStepKindIsNamedByItsRequiredVerb() {
        let kinds = DefinitionSchema.Object.shortcutSteps
        #expect(kinds.count == 15)
        for kind in kinds {
            let verb = kind.stepVerb ?? ""
            #expect(DefinitionSchema.keys(of: kind).first == verb, "\(kind)")
            #expect(DefinitionSchema.requiredKeys(of: kind).contains(verb), "\(kind)")
            // A verb names one kind only.
            #expect(kinds.filter { DefinitionSchema.keys(of: $0).contains(verb) }.map(\.stepVerb) == [verb], "\(kind)")
        }
    }

    @Test(arguments: DefinitionSchema.Document.allCases)
    func schemasAreJSONWithTheirOwnObjectsOnly(_ document: DefinitionSchema.Document) throws {
        let data = Data(DefinitionSchema.jsonSchema(for: document).utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let definitions = try #require(object["$defs"] as? [String: Any])
        switch document {
        case .definitions:
            #expect(definitions["intent"] != nil)
            #expect(definitions["sayStep"] == nil)
        case .shortcuts:
            #expect(object["required"] as? [String] == ["shortcut", "steps"])
            #expect(definitions["sayStep"] != nil)
            #expect(definitions["intent"] == nil)
        }
    }
}

/// 23. What the compiler accepts, the schema accepts; what it rejects, the schema rejects.
struct SchemaAgreementTests {
    static func app(
        parameter: String = "{ type: duration }", summary: String = "\"Go ${length}\"", steps: String = "[]"
    )
        -> String
    {
        """
        app: T
        entities:
          Task:
            properties: { title: string }
            matchBy: [title]
        intents:
          Go:
            parameters:
              length: \(parameter)
              task: { type: Task, optional: true }
            summary: \(summary)
            phrases: ["go {length}"]
            perform: \(steps)
            result: { dialog: "Going ${length}." }
            examples:
              - say: "go 5m"
                expect: { length: 5m }
        """
    }

    static let cases: [(name: String, source: String, accepted: Bool)] = [
        (
            "duration bounds as durations", app(parameter: "{ type: duration, validate: [{ min: 1m }, { max: 2h }] }"),
            true
        ),
        ("duration bounds in seconds", app(parameter: "{ type: duration, validate: [{ min: 60 }] }"), true),
        ("a summary list of plain texts", app(summary: "[\"Go ${length}\"]"), true),
        ("a summary branch without text", app(summary: "[{ when: \"length > 1m\" }]"), false),
        ("a step without a verb", app(steps: "[{ as: x }]"), false),
        ("a step with two verbs", app(steps: "[{ create: Task, find: Task }]"), false),
        ("a key another step takes", app(steps: "[{ create: Task, where: \"true\", set: { title: x } }]"), false),
        ("a plain create", app(steps: "[{ create: Task, set: { title: x }, as: t }]"), true),
        (
            "a find with its keys",
            app(steps: "[{ find: Task, where: \"title == 'x'\", sort: title, limit: 2, as: found }]"), true
        ),
    ]

    @Test(
        .enabled(if: SchemaTests.pythonHasJSONSchema, "needs python3 with jsonschema and PyYAML"),
        arguments: Self.cases.map { ($0.name, $0.source, $0.accepted) })
    func agrees(_ name: String, _ source: String, _ accepted: Bool) throws {
        let errors = compile(source).diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty == accepted, "compiler: \(errors.map(\.message.text))")
        let file = NSTemporaryDirectory() + "intents-agree-\(UUID().uuidString).yaml"
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let problems = try SchemaTests.validate([file], against: .definitions)
        #expect(problems.isEmpty == accepted, "schema: \(problems)")
    }
}
