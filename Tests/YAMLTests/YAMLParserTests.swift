import Testing

@testable import YAML

struct YAMLParserTests {
    @Test func keepsMarksOnEveryNode() throws {
        let doc = try YAMLParser.parse("app: Radar\nintents:\n  Create:\n    title: Create\n", file: "a.yaml")
        let root = try #require(doc.root)
        #expect(root["app"]?.string == "Radar")
        #expect(root["app"]?.mark == Mark(file: "a.yaml", line: 1, column: 6))
        let create = try #require(root["intents"]?.mapping?.first)
        #expect(create.key.mark == Mark(file: "a.yaml", line: 3, column: 3))
        #expect(create.value["title"]?.mark.line == 4)
    }

    @Test func scalarStylesAndTypes() throws {
        let doc = try YAMLParser.parse(
            "a: 'x'\nb: \"y\"\nc: 0x1F\nd: -3\ne: 2.5\nf: ~\ng: true\nh: |\n  text\n", file: "t")
        let root = try #require(doc.root)
        #expect(root["a"]?.scalar?.style == .singleQuoted)
        #expect(root["b"]?.scalar?.style == .doubleQuoted)
        #expect(root["c"]?.int == 31)
        #expect(root["d"]?.int == -3)
        #expect(root["e"]?.double == 2.5)
        #expect(root["e"]?.int == nil)
        #expect(root["f"]?.isNull == true)
        #expect(root["g"]?.bool == true)
        #expect(root["h"]?.string == "text\n")
        #expect(root["h"]?.scalar?.style == .literal)
    }

    @Test func resolvesAnchorsAndAliases() throws {
        let doc = try YAMLParser.parse("base: &b [1, 2]\ncopy: *b\n", file: "t")
        #expect(doc.root?["copy"] == doc.root?["base"])
        #expect(doc.root?["copy"]?.sequence?.count == 2)
    }

    @Test func reportsDuplicateKeysWithTheFirstPlace() throws {
        let doc = try YAMLParser.parse("a: 1\nb: 2\na: 3\n", file: "t")
        let problem = try #require(doc.duplicateKeys.first)
        #expect(problem.message == "duplicate key 'a'")
        #expect(problem.mark == Mark(file: "t", line: 3, column: 1))
        #expect(problem.context?.mark == Mark(file: "t", line: 1, column: 1))
    }

    @Test func reportsDuplicateKeysInLargeMappings() throws {
        let keys = (0..<40).map { "k\($0): \($0)" } + ["k3: again", "k39: again"]
        let doc = try YAMLParser.parse(keys.joined(separator: "\n"), file: "t")
        #expect(doc.duplicateKeys.map(\.message) == ["duplicate key 'k3'", "duplicate key 'k39'"])
        #expect(doc.duplicateKeys.map { $0.context?.mark.line } == [4, 40])
    }

    @Test func refusesASecondDocument() {
        #expect(throws: YAMLError.self) { try YAMLParser.parse("a: 1\n---\nb: 2\n", file: "t") }
        do {
            _ = try YAMLParser.parse("a: 1\n---\nb: 2\n", file: "t")
        } catch {
            #expect(error.message.contains("second"))
            #expect(error.mark.line == 2)
        }
    }

    @Test func acceptsAByteOrderMarkAndEmptyFiles() throws {
        let doc = try YAMLParser.parse(bytes: [0xEF, 0xBB, 0xBF] + Array("app: X\n".utf8), file: "t")
        #expect(doc.root?["app"]?.string == "X")
        #expect(try YAMLParser.parse("", file: "t").root == nil)
        #expect(try YAMLParser.parse("# only a comment\n", file: "t").root == nil)
    }

    @Test func syntaxErrorsCarryPositionAndContext() {
        do {
            _ = try YAMLParser.parse("a: [1, 2\nb: 3\n", file: "bad.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.mark.file == "bad.yaml")
            #expect(error.mark.line == 2)
            #expect(error.context?.message.contains("flow sequence") == true)
            #expect(error.context?.mark == Mark(file: "bad.yaml", line: 1, column: 4))
        }
    }

    @Test func invalidUTF8IsAnErrorWithAPosition() {
        do {
            _ = try YAMLParser.parse(bytes: Array("a: 1\nb: ".utf8) + [0xFF, 0x0A], file: "t")
            Issue.record("expected an error")
        } catch {
            #expect(error.mark.line == 2)
            #expect(error.message.contains("UTF-8"))
        }
    }

    @Test func refusesRecursiveAliasesAndDeepNesting() {
        #expect(throws: YAMLError.self) { try YAMLParser.parse("a: &x [*x]\n", file: "t") }
        let deep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        #expect(throws: YAMLError.self) { try YAMLParser.parse(deep, file: "t") }
    }

    @Test func refusesAliasBombs() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1..<9 {
            let refs = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            text += "a\(level): &a\(level) [\(refs)]\n"
        }
        #expect(throws: YAMLError.self) { try YAMLParser.parse(text, file: "t") }
    }
}

/// Issue 10: nesting and size limits hold while reading, so no file takes long to refuse.
struct YAMLLimitsTests {
    @Test(arguments: [
        (
            "flow sequences", "x: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
            203
        ),
        ("flow mappings", String(repeating: "{a: ", count: 50_000) + "1" + String(repeating: "}", count: 50_000), 801),
    ])
    func deepNestingIsRefusedWhileReading(name: String, source: String, column: Int) throws {
        let clock = ContinuousClock()
        let started = clock.now
        #expect {
            _ = try YAMLParser.parse(source, file: "deep.yaml")
        } throws: { error in
            guard let error = error as? YAMLError else { return false }
            return error.message == "nesting deeper than 200 levels" && error.mark.line == 1
                && error.mark.column == column
        }
        // libyaml's loader is quadratic in the depth: 40,000 levels took 14 s when the limit was
        // checked after loading. Refused while reading, it is instant; 10 s is far from both.
        #expect(clock.now - started < .seconds(10))
    }

    @Test func aFileOverTheSizeLimitIsRefused() {
        let big = "a: \"" + String(repeating: "x", count: YAMLParser.maximumBytes) + "\"\n"
        #expect {
            _ = try YAMLParser.parse(big, file: "big.yaml")
        } throws: { error in
            (error as? YAMLError)?.message == "the file is \(big.utf8.count) bytes; a definition file is at most 4 MB"
        }
    }
}

/// Issue 25: nodes are built from libyaml's events in one pass (its document loader is no longer
/// used); what the loader reported, the pass reports the same way.
struct YAMLEventLoaderTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var source: String
        var message: String
        var line: Int
        var column: Int
        var testDescription: String { message }
    }

    static let refusals: [Case] = [
        Case(source: "a: *nowhere\n", message: "found undefined alias", line: 1, column: 4),
        Case(source: "a: &x 1\nb: &x 2\n", message: "second occurrence", line: 2, column: 4),
        Case(source: "a: &x\n  b: [*x]\n", message: "an alias refers to a node that contains it", line: 1, column: 4),
        Case(
            source: "a: 1\n--- \nb: 2\n", message: "a definition file holds one YAML document; found a second one here",
            line: 2, column: 1),
    ]

    @Test(arguments: refusals) func refuses(_ c: Case) {
        #expect {
            _ = try YAMLParser.parse(c.source, file: "t")
        } throws: { error in
            guard let error = error as? YAMLError else { return false }
            return error.message == c.message && error.mark.line == c.line && error.mark.column == c.column
        }
    }

    @Test func aliasesRepeatWhatTheyNameWithItsMarksAndTags() throws {
        let doc = try YAMLParser.parse("base: &b !custom {x: 1, y: [2, 3]}\ncopy: *b\nplain: !!str 4\n", file: "t")
        let copy = try #require(doc.root?["copy"])
        #expect(copy == doc.root?["base"])
        #expect(copy.mark == doc.root?["base"]?.mark)
        #expect(copy.mark.line == 1)
        #expect(copy.tag == "!custom")
        #expect(doc.root?["plain"]?.tag == nil)
        #expect(doc.root?["base"]?["y"]?.sequence?.count == 2)
    }

    @Test func aliasesCountTowardTheDepthWhereTheyAreUsed() {
        // 150 levels anchored, used 100 levels down: 250 deep, although no line nests past 150.
        let anchored = "a: &deep " + String(repeating: "[", count: 150) + String(repeating: "]", count: 150) + "\n"
        let user = "b: " + String(repeating: "[", count: 100) + "*deep" + String(repeating: "]", count: 100) + "\n"
        #expect {
            _ = try YAMLParser.parse(anchored + user, file: "t")
        } throws: { error in
            (error as? YAMLError)?.message == "nesting deeper than 200 levels"
        }
    }
}
