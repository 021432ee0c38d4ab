import ArgumentParser
import Foundation
import IntentModel
import IntentRendering
import YAML

/// `intents import homeassistant|rasa|alexa PATH`: another ecosystem's sentences as one of our apps.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Bring sentences from Home Assistant, Rasa or Alexa as a new app.",
        discussion:
            "Writes DIR/<app>/app.yaml (DIR is --intents) and prints a report of what could not be carried over, line by line with why. Never overwrites an existing app folder. See docs/importing.md.",
        subcommands: [HomeAssistantImport.self, RasaImport.self, AlexaImport.self]
    )
}

/// The options every importer takes.
struct ImportOptions: ParsableArguments {
    @Option(
        name: .customLong("intents"),
        help: ArgumentHelp("The definitions directory to add the app to.", valueName: "dir"))
    var intentsDirectory: String = "Intents"

    @Option(help: ArgumentHelp("The new app's name (default: from the source).", valueName: "name"))
    var app: String?

    func validate() throws {
        if let app, let problem = NewAppTemplate.problem(with: app) {
            throw ValidationError("'\(app)' cannot name an app: \(problem).")
        }
    }

    /// The largest source file read, in bytes.
    static let maximumBytes = YAMLParser.maximumBytes

    /// Reads and parses a YAML (or JSON) source file; a clear error when it cannot.
    static func parse(_ path: String) throws -> Node {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            Terminal.standardError("error: '\(path)' is a folder; name the file to import\n")
            throw ExitCode(1)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            Terminal.standardError("error: cannot read '\(path)'\n")
            throw ExitCode(1)
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumBytes + 1) ?? Data()
        } catch {
            Terminal.standardError("error: cannot read '\(path)': \(error.localizedDescription)\n")
            throw ExitCode(1)
        }
        guard data.count <= maximumBytes else {
            Terminal.standardError("error: '\(path)' is over \(maximumBytes / 1024 / 1024) MiB; nothing was imported\n")
            throw ExitCode(1)
        }
        let root: Node?
        do {
            root = try YAMLParser.parse(bytes: [UInt8](data), file: path).root
        } catch {
            Terminal.standardError(
                "\(error)\nerror: '\(path)' could not be read as YAML or JSON; nothing was imported\n")
            throw ExitCode(1)
        }
        guard let root else {
            Terminal.standardError("error: '\(path)' is empty; nothing was imported\n")
            throw ExitCode(1)
        }
        return root
    }

    /// Writes the app to DIR/<lowercased name>/app.yaml and prints the report; refuses to overwrite.
    func write(_ app: ImportedApp, report: ImportReport, from source: String) throws {
        if let problem = NewAppTemplate.problem(with: app.name) {
            Terminal.standardError("error: '\(app.name)' cannot name an app: \(problem); choose one with --app\n")
            throw ExitCode(1)
        }
        let folder = PathText.appending(intentsDirectory, app.name.lowercased())
        if FileManager.default.fileExists(atPath: folder) {
            Terminal.standardError(
                "error: '\(folder)' already exists; nothing was written (choose another name with --app)\n")
            throw ExitCode(1)
        }
        let file = PathText.appending(folder, "app.yaml")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(app.yaml.utf8).write(to: URL(fileURLWithPath: file), options: .withoutOverwriting)
        } catch {
            Terminal.standardError("error: cannot write '\(file)': \(error.localizedDescription)\n")
            throw ExitCode(1)
        }
        let phrases = app.intents.reduce(0) { $0 + $1.phrases.count + $1.phrasesWithValues.count }
        let examples = app.intents.reduce(0) { $0 + $1.examples.count }
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        let summary =
            "Imported \(source) into \(file): \(count(app.intents.count, "intent")), \(count(app.enums.count, "enum")), "
            + "\(count(phrases, "phrase")), \(count(examples, "example"))."
        print(report.render(summary: summary), terminator: "")
    }
}

struct RasaImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rasa", abstract: "Import a Rasa nlu.yml: intents, annotated entities, synonyms, lookups, regexes."
    )

    @OptionGroup var options: ImportOptions

    @Argument(help: ArgumentHelp("The nlu.yml file.", valueName: "path"))
    var path: String

    func run() throws {
        let document = try ImportOptions.parse(path)
        let source = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        var importer = RasaImporter(file: path, appName: options.app ?? "Assistant", source: source)
        let app = importer.importApp(from: document)
        guard importer.diagnostics.isEmpty else {
            var sources = SourceFiles()
            sources.add(path: path, text: source)
            let printer = DiagnosticPrinter(sources: sources, colored: Terminal.stderrIsTerminal)
            let count = importer.diagnostics.count
            Terminal.standardError(
                printer.render(importer.diagnostics)
                    + "error: '\(path)' has \(count) error\(count == 1 ? "" : "s"); nothing was imported\n")
            throw ExitCode(1)
        }
        try options.write(app, report: importer.report, from: path)
    }
}

struct AlexaImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alexa",
        abstract: "Import an Alexa interaction model (JSON): intents, samples, slot types, prompts.")

    @OptionGroup var options: ImportOptions

    @Argument(help: ArgumentHelp("The interaction model JSON file.", valueName: "path"))
    var path: String

    func run() throws {
        var importer = AlexaImporter(file: path, appName: options.app)
        let app = importer.importApp(from: try ImportOptions.parse(path))
        try options.write(app, report: importer.report, from: path)
    }
}

struct HomeAssistantImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "homeassistant",
        abstract: "Import Home Assistant custom sentences: a custom_sentences/<lang>/ folder or one file.")

    @OptionGroup var options: ImportOptions

    @Argument(
        help: ArgumentHelp(
            "custom_sentences/<lang>/, custom_sentences/ with one language, or one .yaml file.", valueName: "path"))
    var path: String

    func run() throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            Terminal.standardError("error: '\(path)' does not exist\n")
            throw ExitCode(1)
        }
        var folder = path
        var paths: [String] = []
        if isDirectory.boolValue {
            var entries = ((try? manager.contentsOfDirectory(atPath: folder)) ?? []).sorted()
            let languages = entries.filter { entry in
                var nested: ObjCBool = false
                return manager.fileExists(atPath: PathText.appending(folder, entry), isDirectory: &nested)
                    && nested.boolValue
            }
            if !entries.contains(where: { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }), languages.count == 1 {
                folder = PathText.appending(folder, languages[0])
                entries = ((try? manager.contentsOfDirectory(atPath: folder)) ?? []).sorted()
            } else if languages.count > 1, !entries.contains(where: { $0.hasSuffix(".yaml") }) {
                Terminal.standardError(
                    "error: '\(path)' holds several languages (\(languages.joined(separator: ", "))); import one folder at a time\n"
                )
                throw ExitCode(1)
            }
            paths = entries.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.map {
                PathText.appending(folder, $0)
            }
        } else {
            paths = [path]
        }
        guard !paths.isEmpty else {
            Terminal.standardError("error: no .yaml files in '\(folder)'\n")
            throw ExitCode(1)
        }
        var importer = HomeAssistantImporter(appName: options.app ?? "Home")
        let files = try paths.map { ($0, try ImportOptions.parse($0)) }
        let app = importer.importApp(files: files, folder: folder)
        try options.write(app, report: importer.report, from: folder)
    }
}
