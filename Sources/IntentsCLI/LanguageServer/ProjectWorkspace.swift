import Foundation
import IntentLanguage
import IntentModel
import PhraseMatching
import YAML

/// The definitions as the editor sees them: the files on disk under the definitions folder, with
/// the open documents laid over them. Each check compiles the whole project, so a type declared in
/// one file and used in another is seen as the compiler sees it.
struct ProjectWorkspace {
    /// The definitions folder (absolute).
    var intentsDirectory: String
    /// Open documents by absolute path: their text as the editor holds it.
    var documents: [String: String] = [:]
    /// The last compilation, and the last graph that compiled without errors (for completion).
    private(set) var compilation: Compilation?
    private(set) var lastGraph: IntentGraph?
    /// The text each file had at the last check, for positions.
    private(set) var texts: [String: String] = [:]
    /// The diagnostics of the open shortcut files, checked against the last graph.
    private(set) var shortcutDiagnostics: [Diagnostic] = []
    /// The matcher over the last graph (for shortcut files' `say:` steps), built when first needed.
    private var matcher: (graph: IntentGraph, matcher: Matcher)?

    init(intentsDirectory: String) {
        self.intentsDirectory = intentsDirectory
    }

    /// Whether `path` is a definition file of this project.
    func isDefinition(_ path: String) -> Bool {
        (path.hasSuffix(".yaml") || path.hasSuffix(".yml")) && path.hasPrefix(intentsDirectory + "/")
    }

    /// Compiles the project with the open documents laid over the files.
    mutating func check() {
        var paths = (try? DefinitionLoader.files(in: intentsDirectory)) ?? []
        for path in documents.keys where isDefinition(path) && !paths.contains(path) { paths.append(path) }
        var inputs: [(path: String, bytes: [UInt8])] = []
        texts = [:]
        for path in paths.sorted() {
            let text =
                documents[path]
                ?? FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
            guard let text else { continue }
            texts[path] = text
            inputs.append((path, Array(text.utf8)))
        }
        let result = IntentCompiler.compile(files: inputs, root: intentsDirectory)
        compilation = result
        if let graph = result.graph {
            lastGraph = graph
            matcher = nil
        }
        checkShortcuts()
    }

    /// Whether `path` is a shortcut file: a YAML file outside the definitions whose text starts a
    /// shortcut (`shortcut:` at the top level).
    func isShortcut(_ path: String) -> Bool {
        guard (path.hasSuffix(".yaml") || path.hasSuffix(".yml")) && !isDefinition(path), let text = documents[path]
        else {
            return false
        }
        return text.split(separator: "\n").contains { $0.hasPrefix("shortcut:") }
    }

    /// Checks every open shortcut file against the last graph that compiled, with the open texts.
    private mutating func checkShortcuts() {
        shortcutDiagnostics = []
        let open = documents.keys.filter(isShortcut).sorted()
        guard !open.isEmpty, let graph = lastGraph else { return }
        if matcher == nil { matcher = (graph, Matcher(index: PhraseIndex(graph: graph), clock: Clock())) }
        guard let matcher = matcher?.matcher else { return }
        let folders = [PathText.appending(PathText.deletingLastComponent(intentsDirectory), "Shortcuts")]
        for path in open {
            texts[path] = documents[path]
            let result = ShortcutCompiler.compile(
                path: path, graph: graph, matcher: matcher, files: documents.filter { isShortcut($0.key) },
                runFolders: folders)
            shortcutDiagnostics += result.diagnostics.filter { $0.location?.start.file == path }
        }
    }

    /// The definition files with the text the editor holds: the open documents over the files on disk.
    func definitionTexts() -> [(path: String, text: String)] {
        var paths = Set((try? DefinitionLoader.files(in: intentsDirectory)) ?? [])
        for path in documents.keys where isDefinition(path) { paths.insert(path) }
        return paths.sorted().compactMap { path in text(of: path).map { (path, $0) } }
    }

    /// The shortcut files: the open ones, and those in the `Shortcuts` folder beside the definitions.
    func shortcutTexts() -> [(path: String, text: String)] {
        var paths = Set(documents.keys.filter(isShortcut))
        let folder = PathText.appending(PathText.deletingLastComponent(intentsDirectory), "Shortcuts")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
            paths.insert(PathText.appending(folder, name))
        }
        return paths.sorted().compactMap { path in
            guard
                let text = documents[path]
                    ?? FileManager.default.contents(atPath: path).map({ String(decoding: $0, as: UTF8.self) }),
                text.split(separator: "\n").contains(where: { $0.hasPrefix("shortcut:") })
            else { return nil }
            return (path, text)
        }
    }

    /// The text of `path`: the open document, else the text at the last check, else the file.
    func text(of path: String) -> String? {
        documents[path] ?? texts[path]
            ?? FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The LSP position (0-based line, UTF-16 character) of a compiler mark (1-based, scalars).
    func position(of mark: Mark) -> LSPPosition {
        let line = max(mark.line - 1, 0)
        guard let text = text(of: mark.file) else { return LSPPosition(line: line, character: max(mark.column - 1, 0)) }
        let lineText = Self.line(line, of: text)
        let scalars = lineText.unicodeScalars.prefix(max(mark.column - 1, 0))
        return LSPPosition(line: line, character: scalars.reduce(0) { $0 + $1.utf16.count })
    }

    /// The LSP range of a compiler range; an empty range is widened to the word it starts.
    func range(of source: SourceRange) -> LSPRange {
        let start = position(of: source.start)
        var end = position(of: source.end)
        if end == start, let text = text(of: source.start.file) {
            let utf16 = Array(Self.line(start.line, of: text).utf16)
            var character = start.character
            while character < utf16.count, !Self.isSeparator(utf16[character]) { character += 1 }
            end = LSPPosition(line: start.line, character: max(character, start.character))
        }
        return LSPRange(start: start, end: end)
    }

    static func isSeparator(_ unit: UTF16.CodeUnit) -> Bool {
        guard let scalar = Unicode.Scalar(unit) else { return false }
        return !(scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == ".")
    }

    static func line(_ number: Int, of text: String) -> Substring {
        var current = 0
        var start = text.startIndex
        while current < number {
            guard let newline = text[start...].firstIndex(of: "\n") else { return "" }
            start = text.index(after: newline)
            current += 1
        }
        let end = text[start...].firstIndex(of: "\n") ?? text.endIndex
        return text[start..<end]
    }
}
