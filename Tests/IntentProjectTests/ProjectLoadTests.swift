import Foundation
import IntentLanguage
import IntentModel
import IntentProject
import PhraseMatching
import TestSupport
import Testing

/// `Project.load`: definitions and shortcut files in, a graph, an index and diagnostics out.
struct ProjectLoadTests {
    /// A scratch folder with copies of the bundled `Intents/` and `Shortcuts/`, removed at the end.
    final class Folder {
        let path = NSTemporaryDirectory() + "intents-project-" + UUID().uuidString
        var intents: String { path + "/Intents" }
        var shortcuts: String { path + "/Shortcuts" }
        var cache: String { path + "/.intents" }

        init() throws {
            let manager = FileManager.default
            try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
            try manager.copyItem(atPath: Bundled.root + "/Intents", toPath: intents)
            try manager.copyItem(atPath: Bundled.root + "/Shortcuts", toPath: shortcuts)
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }

        func write(_ text: String, to file: String) throws {
            try text.write(toFile: path + "/" + file, atomically: true, encoding: .utf8)
        }
    }

    @Test func theBundledProjectLoadsWithEveryShortcutFile() throws {
        let folder = try Folder()
        let project = try Project.load(
            intents: folder.intents, shortcuts: .directory(folder.shortcuts), clock: Bundled.clock)
        #expect(!project.hasErrors, "\(project.diagnostics.map(\.message.text))")
        #expect(project.graph != nil)
        #expect(project.index != nil)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.shortcuts).filter {
            $0.hasSuffix(".yaml")
        }
        #expect(project.shortcutFiles.count == files.count)
        for file in project.shortcutFiles { #expect(project.shortcut(at: file) != nil, "\(file) not compiled") }
        #expect(project.definitionFiles.contains { $0.hasSuffix("radar/app.yaml") })
    }

    @Test func aBrokenShortcutFileIsReportedAsTheShortcutFiles() throws {
        let folder = try Folder()
        try folder.write("shortcut: Broken\nsteps:\n  - intent: FocusBlox.NoSuchIntent\n", to: "Shortcuts/broken.yaml")
        let project = try Project.load(
            intents: folder.intents, shortcuts: .files([folder.shortcuts + "/broken.yaml"]), clock: Bundled.clock)
        let errors = project.diagnostics.filter { $0.severity == .error }
        #expect(!errors.isEmpty)
        #expect(errors.allSatisfy(project.isShortcutFile), "\(errors.map(\.message.text))")
        #expect(project.hasErrors)
        #expect(project.graph == nil, "a project with errors hands out no graph")
    }

    @Test func definitionsWithAnErrorGiveNoGraphAndSayWhere() throws {
        let folder = try Folder()
        let app = folder.intents + "/radar/app.yaml"
        let text = try String(contentsOfFile: app, encoding: .utf8)
        try text.replacingOccurrences(
            of: "type: RadarPosition, default: neutral }", with: "type: RadarPositon, default: neutral }"
        )
        .write(toFile: app, atomically: true, encoding: .utf8)
        let project = try Project.load(intents: folder.intents, clock: Bundled.clock)
        #expect(project.graph == nil && project.index == nil)
        let error = try #require(project.diagnostics.first { $0.severity == .error })
        #expect(error.message.text.contains("did you mean 'RadarPosition'"))
        #expect(error.location?.start.file.hasSuffix("radar/app.yaml") == true)
        #expect(!project.isShortcutFile(error))
    }

    @Test func aMissingFolderThrows() {
        #expect(throws: DefinitionLoadError.self) {
            try Project.load(
                intents: NSTemporaryDirectory() + "no-such-intents-" + UUID().uuidString, clock: Bundled.clock)
        }
    }

    @Test func theCompiledCacheIsWrittenOnceAndADamagedOneIsRebuilt() throws {
        let folder = try Folder()
        let first = try Project.load(intents: folder.intents, clock: Bundled.clock, indexCache: folder.cache)
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.cache).filter { $0.hasSuffix(".bin") }
        #expect(written.count == 1, "\(written)")
        let file = try #require(first.compiled?.file)
        #expect(written.map { folder.cache + "/" + $0 } == [file])
        let key = try #require(first.compiled?.key)
        #expect(CompiledCache.load(key: key, in: folder.cache) != nil, "the cache written cannot be read back")
        let again = try Project.load(intents: folder.intents, clock: Bundled.clock, indexCache: folder.cache)
        #expect(again.diagnostics.count == first.diagnostics.count)
        #expect(again.graph != nil && again.index != nil)

        // A cache file cut short is not trusted: the project is compiled anew and the file rewritten.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: file))
        #expect(CompiledCache.load(key: key, in: folder.cache) == nil)
        let rebuilt = try Project.load(intents: folder.intents, clock: Bundled.clock, indexCache: folder.cache)
        #expect(rebuilt.graph != nil && rebuilt.index != nil)
        #expect(rebuilt.diagnostics.map(\.message.text) == first.diagnostics.map(\.message.text))
        #expect(CompiledCache.load(key: key, in: folder.cache) != nil, "the damaged cache was not rewritten")
    }
}
