import Testing

@testable import ModelStore

@Suite("SQL quoting: names and texts written into statements")
struct SQLQuotingTests {
    @Test("A name or a text is written between its marks, each mark inside doubled")
    func marksAreDoubled() {
        #expect(SQLQuoting.name("FocusBlox.Task") == "\"FocusBlox.Task\"")
        #expect(SQLQuoting.name("a\"b\"") == "\"a\"\"b\"\"\"")
        #expect(SQLQuoting.literal("it's") == "'it''s'")
        #expect(SQLQuoting.literal("") == "''")
        #expect(SQLQuoting.name("Ärger \"Ü\"") == "\"Ärger \"\"Ü\"\"\"")
        // The other mark is left as it is.
        #expect(SQLQuoting.literal("say \"hi\"") == "'say \"hi\"'")
        #expect(SQLiteDialect().quote("x\"y") == "\"x\"\"y\"")
        #expect(PostgresDialect().quote("x\"y") == "\"x\"\"y\"")
    }
}
