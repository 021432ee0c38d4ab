import IntentModel
import Testing

@testable import IntentLanguage

struct TemplateParsingTests {
    @Test(arguments: [
        ("(create|add) [a] task {title} [in {app}]", 4),
        ("remind me to {title} {due}", 16),
        ("<refresh_word> my <radar_word>", 1),
    ])
    func phraseTemplatesExpand(source: String, sentences: Int) throws {
        let rules = [
            "refresh_word": try PhraseTemplateParser.parse("(refresh|update)"),
            "radar_word": try PhraseTemplateParser.parse("(radar|radars)"),
        ]
        let template = try PhraseTemplateParser.parse(source)
        let expected = source.hasPrefix("<") ? 4 : source.hasPrefix("(") ? 8 : 1
        #expect(template.expansions(rules: rules)?.count == expected)
        _ = sentences
    }

    /// What a suggestion or a tip shows of a phrase is a sentence a person says: the little words
    /// between required ones are kept, an optional at either end or one holding a slot is not.
    @Test(arguments: [
        (
            "(start|begin) [a] focus (block|session) [for] {minutes} minutes [on|for] {title}",
            "start a focus block for {minutes} minutes on {title}"
        ),
        (
            "(start|begin) [a] focus (block|session) (on|for) {title} [for {minutes} minutes]",
            "start a focus block on {title}"
        ),
        ("[please] add {title} [to my tasks] [please]", "add {title}"),
        ("(mark|set) [the] [task] {task} [as|to] {urgency}", "mark the task {task} as {urgency}"),
        ("<refresh_word> [all] my <radar_word> [now]", "refresh all my radar"),
        ("[hey] [there]", "hey there"),
        ("new task in {app}", "new task in {app}"),
    ])
    func theSentenceShownIsOneAPersonSays(source: String, expected: String) throws {
        let rules = [
            "refresh_word": try PhraseTemplateParser.parse("(refresh|update)"),
            "radar_word": try PhraseTemplateParser.parse("(radar|radars)"),
        ]
        let pieces = try #require(try PhraseTemplateParser.parse(source).sayableSentence(rules: rules))
        let words = pieces.map { piece -> String in
            switch piece {
            case .word(let word): word
            case .slot(let name): "{\(name)}"
            case .app: "{app}"
            }
        }
        #expect(words.joined(separator: " ") == expected)
        #expect(try PhraseTemplateParser.parse("<missing> thing").sayableSentence(rules: rules) == nil)
    }

    @Test(arguments: [
        ("buy (it|that", "'(' is never closed", 4),
        ("buy {item", "'{' is never closed with '}'", 4),
        ("buy it)", "unexpected ')'", 6),
        ("buy (|it)", "empty alternative; use [optional] for words that may be left out", 4),
        ("buy | sell", "put alternatives in parentheses: '(a|b)'", 4),
        ("buy {my item}", "'{my item}' is not a valid slot name", 4),
    ])
    func phraseSyntaxErrorsPointAtTheirPlace(source: String, message: String, offset: Int) {
        #expect(throws: ExpressionSyntaxError.self) { try PhraseTemplateParser.parse(source) }
        do {
            _ = try PhraseTemplateParser.parse(source)
        } catch {
            #expect(error.message == message)
            #expect(error.offset == offset)
        }
    }

    @Test func interpolationsKeepTheirExpressions() throws {
        let template = try TemplateParser.parse("Added “${task.title}” ${count(next) == 0 ? 'none' : 'some'}.")
        #expect(template.expressions.count == 2)
        #expect(template.soleExpression == nil)
        #expect(try TemplateParser.parse("${task}").soleExpression?.kind == .name("task"))
        #expect(try TemplateParser.parse("costs $${5}").parts == [.text("costs ${5}")])
        #expect(try TemplateParser.parse("Grüße, ${name}! $${x} kostet $5").parts.count == 3)
        #expect(try TemplateParser.parse("Grüße, ${name}! $${x} kostet $5").parts.last == .text("! ${x} kostet $5"))
        #expect(try TemplateParser.parse("no dollars").parts == [.text("no dollars")])
        #expect(try TemplateParser.parse("").parts == [.text("")])
    }

    /// ASCII text is scanned from its bytes, other text from its scalars: both give the same parts,
    /// spans and error offsets, counted in characters (Unicode scalars) either way.
    @Test func asciiAndOtherTextAgree() throws {
        let ascii = try TemplateParser.parse("Hello, ${name + 'x'} and ${count}")
        let other = try TemplateParser.parse("Hölló, ${name + 'ü'} and ${count}")
        #expect(ascii.expressions.map(\.span) == other.expressions.map(\.span))
        #expect(other.expressions.map(\.span) == [9..<19, 27..<32])
        #expect(other.parts.first == .text("Hölló, "))
        for source in ["${a +}", "${ä +}"] {
            #expect(throws: ExpressionSyntaxError.self) { try TemplateParser.parse(source) }
            do { _ = try TemplateParser.parse(source) } catch { #expect(error.offset == 5) }
        }
        #expect(try ExpressionParser.parse("größe == 'ß'").span == 0..<12)
        #expect(
            try PhraseTemplateParser.parse("mach {größe} <wörter>").items == [
                .word("mach"), .slot("größe", offset: 6), .rule("wörter", offset: 14),
            ])
    }

    /// Words, slot and rule names come out of the source as written; a name may have spaces inside
    /// its braces and letters of any script.
    @Test func phraseWordsAndNamesAsWritten() throws {
        let template = try PhraseTemplateParser.parse("Füge [das] { title }\t<item_word> zu {größe} hinzu")
        #expect(
            template.items == [
                .word("Füge"), .optional([[.word("das")]]), .slot("title", offset: 12), .rule("item_word", offset: 22),
                .word("zu"), .slot("größe", offset: 37), .word("hinzu"),
            ])
    }

    @Test(arguments: [
        "due != nil && !isCompleted", "urgency in [urgent, not_urgent]", "count(Task where !isCompleted) > 3",
        "a ?? b", "x ? 1 : 2", "-minutes * 2 + 3 % 2", "task.title == 'milk'",
    ])
    func expressionsParse(source: String) throws {
        _ = try ExpressionParser.parse(source)
    }

    /// `or`, `and`, `not`, `in` and `where` are words of the grammar only where they stand alone:
    /// names that begin with them, or hold them, stay names.
    @Test func keywordsAndNamesThatLookLikeThem() throws {
        func e(_ kind: Expression.Kind) -> Expression { Expression(kind, span: 0..<0) }
        let a = e(.name("a")), b = e(.name("b")), c = e(.name("c"))
        #expect(
            try ExpressionParser.parse("a or b and not c")
                == e(.binary(.or, a, e(.binary(.and, b, e(.unary(.not, c)))))))
        #expect(try ExpressionParser.parse("a || b && !c") == ExpressionParser.parse("a or b and not c"))
        #expect(try ExpressionParser.parse("a in [b]") == e(.binary(.contains, a, e(.list([b])))))
        #expect(
            try ExpressionParser.parse("order or index and notes")
                == e(.binary(.or, e(.name("order")), e(.binary(.and, e(.name("index")), e(.name("notes")))))))
        #expect(try ExpressionParser.parse("Task where done") == e(.query(entity: "Task", filter: e(.name("done")))))
        #expect(
            try ExpressionParser.parse("Shop.Task where in_stock")
                == e(.query(entity: "Shop.Task", filter: e(.name("in_stock")))))
        #expect(try ExpressionParser.parse("Task.wherever") == e(.member(e(.name("Task")), "wherever")))
        #expect(try ExpressionParser.parse("a ?? b") == e(.binary(.coalesce, a, b)))
    }

    @Test(arguments: [
        ("a ==", "expected an expression"), ("(a", "expected ')' before the end of the expression"),
        ("a # b", "unexpected character '#'"), ("'open", "unterminated string"),
        ("a = b", "unexpected character '='"), ("f(a]", "expected ')', found ']'"), ("a && ||", "unexpected '||'"),
    ])
    func expressionErrors(source: String, message: String) {
        do {
            _ = try ExpressionParser.parse(source)
            Issue.record("expected an error")
        } catch {
            #expect(error.message == message)
        }
    }
}
