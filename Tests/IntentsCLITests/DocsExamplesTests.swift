import Foundation
import TestSupport
import Testing

/// Every ```` ```console ```` block of the README, CONTRIBUTING and docs/ runs as it is written
/// (docs/README.md, "Examples that run", states the convention this test keeps).
@Suite(.tags(.slow), .skippedWhenFast)
struct DocsExamplesTests {
    /// One `$ ` line of a block and the lines it is shown to print.
    struct Command {
        var line: Int
        var text: String
        var shown: [String]
    }

    struct Block {
        var file: String
        var line: Int
        var commands: [Command]
    }

    static let documents: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: Bundled.root + "/docs")) ?? []
        return ["README.md", "CONTRIBUTING.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    /// The console blocks of a Markdown text, each with its commands (a fence may be indented, as
    /// inside a list item; the indent is taken off its lines).
    static func blocks(in text: String, file: String) -> [Block] {
        var blocks: [Block] = []
        var current: Block?
        var indent = 0
        var inOtherFence = false
        for (index, raw) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = raw.drop { $0 == " " }
            if current == nil {
                if trimmed.hasPrefix("```") {
                    if !inOtherFence && trimmed == "```console" {
                        current = Block(file: file, line: index + 1, commands: [])
                        indent = raw.count - trimmed.count
                    } else {
                        inOtherFence.toggle()
                    }
                }
                continue
            }
            if trimmed == "```" {
                blocks.append(current!)
                current = nil
                continue
            }
            let line = String(raw.dropFirst(min(indent, raw.prefix { $0 == " " }.count)))
            if line.hasPrefix("$ ") {
                current!.commands.append(Command(line: index + 1, text: String(line.dropFirst(2)), shown: []))
            } else if let last = current!.commands.indices.last {
                if current!.commands[last].shown.isEmpty && current!.commands[last].text.hasSuffix("\\") {
                    current!.commands[last].text += "\n" + line  // a command continued on the next line
                } else {
                    current!.commands[last].shown.append(line)
                }
            }
        }
        return blocks
    }

    /// Whether `actual` is what `shown` shows: a line `…` stands for any number of lines, `…` inside
    /// a line for any text.
    static func matches(_ actual: [String], _ shown: [String]) -> Bool {
        var memo: [Int: Bool] = [:]
        func match(_ a: Int, _ s: Int) -> Bool {
            let key = a * (shown.count + 1) + s
            if let known = memo[key] { return known }
            let result: Bool
            if s == shown.count {
                result = a == actual.count
            } else if shown[s].trimmingCharacters(in: .whitespaces) == "…" {
                result = match(a, s + 1) || (a < actual.count && match(a + 1, s))
            } else {
                result = a < actual.count && lineMatches(actual[a], shown[s]) && match(a + 1, s + 1)
            }
            memo[key] = result
            return result
        }
        return match(0, 0)
    }

    static func lineMatches(_ actual: String, _ shown: String) -> Bool {
        let pieces = shown.components(separatedBy: "…")
        if pieces.count == 1 { return actual == shown }
        guard actual.hasPrefix(pieces[0]), actual.dropFirst(pieces[0].count).hasSuffix(pieces.last!) else {
            return false
        }
        var rest = Substring(actual.dropFirst(pieces[0].count).dropLast(pieces.last!.count))
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let range = rest.range(of: piece) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }

    /// The compiled caches of the bundled apps (phrase index, learned model, tagger), made once by a
    /// `say` that trains the learned stage: every block starts with them, as a second `say` would, so
    /// the training (seconds) is paid once and not by each block.
    static let caches: ScratchDirectory = {
        let warm = ScratchDirectory("docs-caches")
        let shell =
            "cp -R '\(Bundled.root)/Intents' Intents && intents say 'note that the caches are warm' >/dev/null 2>&1"
        _ = try? shellOutput(shell, in: warm.path)
        return warm
    }()

    static func scratchCopy() throws -> ScratchDirectory {
        let scratch = ScratchDirectory("docs")
        let manager = FileManager.default
        for folder in ["Intents", "Shortcuts"] {
            try manager.copyItem(atPath: Bundled.root + "/" + folder, toPath: scratch.path + "/" + folder)
        }
        let built = caches.path + "/.intents"
        let files = (try? manager.contentsOfDirectory(atPath: built))?.filter { $0.hasSuffix(".bin") } ?? []
        try manager.createDirectory(atPath: scratch.path + "/.intents", withIntermediateDirectories: true)
        for file in files {
            try manager.copyItem(atPath: built + "/" + file, toPath: scratch.path + "/.intents/" + file)
        }
        return scratch
    }

    /// Runs `script` with `/bin/sh` in `directory` (at most fifteen minutes: a debug build on a loaded machine), the debug `intents` first
    /// on `PATH` and the docs' clock; standard output and standard error together.
    static func shellOutput(_ script: String, in directory: String) throws -> String {
        let scriptPath = directory + "/.example.sh"
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["900", "/bin/sh", scriptPath]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = IntentsBinary.folder + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["NO_COLOR"] = "1"
        environment["TZ"] = "UTC"
        environment["INTENTS_NOW"] = "2026-11-22T10:00"
        environment["HOME"] = directory
        environment["INTENTS_STORE"] = nil
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs a block's commands in one shell in a scratch copy of the bundled apps; returns each
    /// command's output (stdout and stderr together) and exit status.
    static func run(_ block: Block) throws -> [(output: [String], status: Int32)] {
        let scratch = try scratchCopy()
        let marker = "@@docs-example@@"
        var script = "exec 2>&1 </dev/null\n__status=0\n"
        for command in block.commands {
            script += "printf '\\n\(marker)\\n'; (exit $__status); \(command.text)\n__status=$?\n"
            script += "printf '\\n\(marker) %d\\n' \"$__status\"\n"
        }
        let output = try shellOutput(script, in: scratch.path)

        var results: [(output: [String], status: Int32)] = []
        var lines: [String] = []
        for line in output.components(separatedBy: "\n") {
            if line == marker {
                lines = []
            } else if line.hasPrefix(marker + " ") {
                while lines.last?.isEmpty == true { lines.removeLast() }
                results.append((lines, Int32(line.dropFirst(marker.count + 1)) ?? -1))
                lines = []
            } else {
                lines.append(line)
            }
        }
        return results
    }

    @Test("every console example in the README and docs/ runs as shown", arguments: documents)
    func examplesRun(_ document: String) throws {
        let text = try String(contentsOfFile: Bundled.root + "/" + document, encoding: .utf8)
        for block in Self.blocks(in: text, file: document) where !block.commands.isEmpty {
            let results = try Self.run(block)
            let ran = "\(results.count) of \(block.commands.count) commands"
            #expect(results.count == block.commands.count, "\(document):\(block.line): the block stopped after \(ran)")
            for (index, (command, result)) in zip(block.commands, results).enumerated() {
                let place = "\(document):\(command.line): $ \(command.text)"
                let next = index + 1 < block.commands.count ? block.commands[index + 1] : nil
                if next?.text != "echo $?" {
                    #expect(
                        result.status == 0,
                        "\(place) exited \(result.status):\n\(result.output.joined(separator: "\n"))")
                }
                var shown = command.shown
                while shown.last?.isEmpty == true { shown.removeLast() }
                if !shown.isEmpty {
                    let printed = result.output.joined(separator: "\n")
                    #expect(
                        Self.matches(result.output, shown),
                        "\(place) printed:\n\(printed)\n— the doc shows:\n\(shown.joined(separator: "\n"))")
                }
            }
        }
    }

    /// The relative links of a Markdown text (outside code), without their `#anchor`.
    static func relativeLinks(in text: String) -> [String] {
        var prose = ""
        var inFence = false
        for line in text.components(separatedBy: "\n") {
            if line.drop(while: { $0 == " " }).hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if !inFence { prose += line + "\n" }
        }
        // Inline code spans hold examples such as `[four](partySize)`, no links.
        let withoutCode = prose.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
        var links: [String] = []
        var rest = Substring(withoutCode)
        while let open = rest.range(of: "](") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ")") else { break }
            let target = String(rest[..<close])
            rest = rest[close...]
            guard !target.contains("://"), !target.hasPrefix("mailto:"), !target.hasPrefix("#"),
                !target.contains(" ")
            else { continue }
            links.append(String(target.split(separator: "#", maxSplits: 1).first ?? ""))
        }
        return links
    }

    @Test(
        "every relative link in the README and docs/ names a file that exists", arguments: documents + ["CHANGELOG.md"])
    func linksResolve(_ document: String) throws {
        let text = try String(contentsOfFile: Bundled.root + "/" + document, encoding: .utf8)
        let folder = URL(fileURLWithPath: Bundled.root + "/" + document).deletingLastPathComponent()
        for link in Self.relativeLinks(in: text) {
            let path = folder.appendingPathComponent(link).standardized.path
            #expect(FileManager.default.fileExists(atPath: path), "\(document) links to \(link), which does not exist")
        }
    }

    @Test func theConventionIsKept() {
        let text = """
            ```sh
            $ not run
            ```
              ```console
              $ echo \\
                a
              a
              …
              $ false
              $ echo $?
              1
              ```
            """
        let blocks = Self.blocks(in: text, file: "t.md")
        #expect(blocks.count == 1)
        #expect(blocks.first?.commands.map(\.text) == ["echo \\\n  a", "false", "echo $?"])
        #expect(blocks.first?.commands.first?.shown == ["a", "…"])
        #expect(Self.matches(["a", "b", "c"], ["a", "…"]))
        #expect(Self.matches(["a"], ["a", "…"]))
        #expect(Self.matches(["id 1234 done"], ["id … done"]))
        #expect(!Self.matches(["a", "b"], ["a"]))
        #expect(!Self.matches(["id 1234 gone"], ["id … done"]))
        #expect(
            Self.relativeLinks(in: "[a](docs/a.md#x), `[four](partySize)`, [w](https://x.org), [b](b.md)")
                == ["docs/a.md", "b.md"])
    }
}
