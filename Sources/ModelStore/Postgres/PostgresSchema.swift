import IntentModel

/// PostgreSQL: `$n` placeholders (the connection numbers the `?`), `IS NOT DISTINCT FROM` for
/// null-safe equality, lists as JSON text read with `jsonb_array_elements_text`, text compared
/// byte by byte (`COLLATE "C"`, as SQLite compares it).
struct PostgresDialect: SQLDialect {
    func quote(_ identifier: String) -> String {
        SQLQuoting.name(identifier)
    }

    func placeholder(_ number: Int) -> String { "?" }

    func literal(_ flag: Bool) -> String { flag ? "TRUE" : "FALSE" }

    func isSame(_ expression: String, _ value: String) -> String { "(\(expression) IS NOT DISTINCT FROM \(value))" }

    func isDifferent(_ expression: String, _ value: String) -> String { "(\(expression) IS DISTINCT FROM \(value))" }

    func textContains(_ column: String, _ needle: String) -> String {
        "(strpos(intents_fold(\(column)), intents_fold(\(needle))) > 0)"
    }

    func listContains(_ column: String, _ element: String) -> String {
        "EXISTS (SELECT 1 FROM jsonb_array_elements_text(\(column)::jsonb) AS e(value) WHERE e.value = (\(element))::text)"
    }

    func ordinal(_ column: String, cases: [String]) -> String {
        "(CASE \(column) " + cases.enumerated().map { "WHEN \($0.element) THEN \($0.offset)" }.joined(separator: " ")
            + " END)"
    }

    func orderTerms(_ expression: String, column: String, descending: Bool, nullable: Bool) -> [String] {
        (nullable ? ["(\(column) IS NULL)"] : []) + [expression + (descending ? " DESC" : "")]
    }

    var insertionOrder: String { "\"_row\"" }

    func columnType(_ type: ValueType) -> String {
        switch type {
        case .integer, .duration, .boolean: "BIGINT"
        case .number: "DOUBLE PRECISION"
        default: "TEXT COLLATE \"C\""
        }
    }
}

extension Store {
    /// The store's own tables on PostgreSQL: those SQLite has, with PostgreSQL's types; full-text
    /// search in `tsvector` columns with GIN indexes instead of FTS5 tables.
    static func createPostgresTables(_ db: any SQLExecutor) throws {
        try db.execute(
            sql: """
                -- The folding of `'x' in text` (TextFolding.fold for the letters of Western European
                -- languages): lower case, no diacritics, ß as ss.
                CREATE OR REPLACE FUNCTION intents_fold(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
                    SELECT replace(translate(lower($1),
                        'àáâãäåāăąçćĉċčďđèéêëēĕėęěĝğġģĥħìíîïĩīĭįıĵķĺļľŀłñńņňòóôõöøōŏőŕŗřśŝşšţťŧùúûüũūŭůűųŵýÿŷźżž',
                        'aaaaaaaaacccccddeeeeeeeeegggghhiiiiiiiiijklllllnnnnooooooooorrrsssstttuuuuuuuuuuwyyyzzz'),
                        'ß', 'ss')
                $$;
                CREATE TABLE IF NOT EXISTS _schema (
                    entity TEXT COLLATE "C" NOT NULL, property TEXT COLLATE "C" NOT NULL, type TEXT NOT NULL,
                    PRIMARY KEY (entity, property));
                CREATE TABLE IF NOT EXISTS _executions (
                    id BIGSERIAL PRIMARY KEY, intent TEXT COLLATE "C" NOT NULL, parameters TEXT NOT NULL,
                    dialog TEXT NOT NULL, at TEXT COLLATE "C" NOT NULL, undone BIGINT NOT NULL DEFAULT 0);
                CREATE TABLE IF NOT EXISTS _changes (
                    execution BIGINT NOT NULL REFERENCES _executions(id), seq BIGINT NOT NULL,
                    entity TEXT COLLATE "C" NOT NULL, record TEXT COLLATE "C" NOT NULL, before TEXT, after TEXT,
                    PRIMARY KEY (execution, seq));
                CREATE TABLE IF NOT EXISTS _donations (
                    id BIGSERIAL PRIMARY KEY, intent TEXT COLLATE "C" NOT NULL, parameters TEXT NOT NULL,
                    at TEXT COLLATE "C" NOT NULL, via TEXT NOT NULL DEFAULT 'phrase', previous TEXT, execution BIGINT);
                CREATE INDEX IF NOT EXISTS _donations_execution ON _donations (execution);
                CREATE TABLE IF NOT EXISTS _names (
                    id BIGSERIAL PRIMARY KEY, entity TEXT COLLATE "C" NOT NULL, record TEXT COLLATE "C" NOT NULL,
                    name TEXT COLLATE "C" NOT NULL, words tsvector NOT NULL);
                CREATE INDEX IF NOT EXISTS _names_words ON _names USING gin (words);
                CREATE INDEX IF NOT EXISTS _names_entity ON _names (entity);
                CREATE TABLE IF NOT EXISTS _name_rows (
                    entity TEXT COLLATE "C" NOT NULL, record TEXT COLLATE "C" NOT NULL, name_row BIGINT NOT NULL,
                    PRIMARY KEY (entity, record, name_row));
                CREATE TABLE IF NOT EXISTS _search_items (
                    doc BIGSERIAL PRIMARY KEY, entity TEXT COLLATE "C" NOT NULL, record TEXT COLLATE "C" NOT NULL,
                    title TEXT NOT NULL, subtitle TEXT NOT NULL, expires TEXT COLLATE "C",
                    ft TEXT NOT NULL, fb TEXT NOT NULL, fk TEXT NOT NULL, words tsvector NOT NULL,
                    UNIQUE (entity, record));
                CREATE INDEX IF NOT EXISTS _search_items_words ON _search_items USING gin (words);
                CREATE TABLE IF NOT EXISTS _search_vocab (term TEXT COLLATE "C" PRIMARY KEY);
                CREATE TABLE IF NOT EXISTS _meta (key TEXT COLLATE "C" PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE IF NOT EXISTS _donation_refs (
                    record TEXT COLLATE "C" NOT NULL, donation BIGINT NOT NULL, PRIMARY KEY (record, donation));
                CREATE TABLE IF NOT EXISTS _suggest_stats (
                    intent TEXT COLLATE "C" NOT NULL, key TEXT COLLATE "C" NOT NULL, count BIGINT NOT NULL,
                    PRIMARY KEY (intent, key));
                CREATE INDEX IF NOT EXISTS _suggest_stats_by_count ON _suggest_stats (intent, count);
                CREATE TABLE IF NOT EXISTS _tips (
                    key TEXT COLLATE "C" PRIMARY KEY, shown TEXT, dismissed BIGINT NOT NULL DEFAULT 0);
                CREATE TABLE IF NOT EXISTS _activities (
                    id BIGSERIAL PRIMARY KEY, type TEXT NOT NULL, intent TEXT COLLATE "C" NOT NULL, title TEXT NOT NULL,
                    parameters TEXT NOT NULL, eligible TEXT NOT NULL, keywords TEXT NOT NULL, link TEXT,
                    at TEXT COLLATE "C" NOT NULL, expires TEXT COLLATE "C" NOT NULL);
                CREATE INDEX IF NOT EXISTS _activities_at ON _activities (at);
                CREATE TABLE IF NOT EXISTS _questions (
                    id BIGSERIAL PRIMARY KEY, intent TEXT COLLATE "C" NOT NULL, question TEXT NOT NULL,
                    state TEXT NOT NULL, at TEXT COLLATE "C" NOT NULL, expires TEXT COLLATE "C" NOT NULL, closed TEXT);
                CREATE TABLE IF NOT EXISTS _conversations (
                    id TEXT COLLATE "C" NOT NULL, "user" TEXT COLLATE "C" NOT NULL, state BYTEA NOT NULL,
                    at TEXT COLLATE "C" NOT NULL, expires TEXT COLLATE "C" NOT NULL, PRIMARY KEY (id, "user"));
                CREATE INDEX IF NOT EXISTS _conversations_expires ON _conversations (expires);
                CREATE TABLE IF NOT EXISTS _live_activities (
                    id BIGSERIAL PRIMARY KEY, activity TEXT COLLATE "C" NOT NULL, key TEXT COLLATE "C" NOT NULL DEFAULT '',
                    attributes TEXT NOT NULL, state TEXT NOT NULL, started_at TEXT COLLATE "C" NOT NULL,
                    updated_at TEXT COLLATE "C" NOT NULL, ended_at TEXT COLLATE "C", dismiss_at TEXT COLLATE "C",
                    execution BIGINT);
                CREATE INDEX IF NOT EXISTS _live_activities_started ON _live_activities (started_at);
                CREATE INDEX IF NOT EXISTS _live_activities_running ON _live_activities (activity, key, ended_at);
                CREATE TABLE IF NOT EXISTS _widget_instances (
                    id BIGSERIAL PRIMARY KEY, widget TEXT NOT NULL, family TEXT,
                    parameters TEXT NOT NULL, added_at TEXT NOT NULL);
                """)
    }

    /// The name index's tables on PostgreSQL (made again when its version changes).
    static let postgresNameIndexTables = """
        DROP TABLE IF EXISTS _name_keys;
        DROP TABLE IF EXISTS _name_words;
        CREATE TABLE _name_keys (
            id BIGSERIAL PRIMARY KEY, entity TEXT COLLATE "C" NOT NULL, length BIGINT NOT NULL,
            key TEXT COLLATE "C" NOT NULL, name TEXT NOT NULL, holders BIGINT NOT NULL, mask BIGINT NOT NULL,
            yek TEXT COLLATE "C" NOT NULL);
        CREATE UNIQUE INDEX _name_keys_head ON _name_keys (entity, length, key);
        CREATE INDEX _name_keys_tail ON _name_keys (entity, length, yek);
        CREATE TABLE _name_words (
            entity TEXT COLLATE "C" NOT NULL, word TEXT COLLATE "C" NOT NULL, length BIGINT NOT NULL,
            id BIGINT NOT NULL, PRIMARY KEY (entity, word, length, id));
        """
}

extension Store {
    /// The name index's generation: moved by every statement that changes `_name_keys`.
    static let nameGenerationQuery = "SELECT n FROM _name_generation"

    /// The generation of the name index on PostgreSQL, which stands in for SQLite's data version:
    /// a one-row table that a statement trigger on `_name_keys` moves by one, in the transaction
    /// that changes the index (a rolled-back write moves nothing; a reader never sees a number
    /// ahead of the rows). A process keeps the index in memory while the number is unchanged.
    /// Its second number, `d`, counts statements that deleted keys (and the index made anew):
    /// while it is unchanged, the keys added since a process read the index are those with higher
    /// ids, and the process adds them to its copy (`NameCache`). Made when missing (a store
    /// written before it gets it on its next opening).
    static func ensurePostgresNameGeneration(_ db: any SQLExecutor) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS _name_generation (n BIGINT NOT NULL, d BIGINT NOT NULL DEFAULT 0);
                INSERT INTO _name_generation (n) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM _name_generation);
                """)
        let found = try db.fetchAll(
            sql: """
                SELECT EXISTS (SELECT 1 FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
                WHERE t.tgname = '_name_keys_changed' AND c.relname = '_name_keys'
                AND c.relnamespace = current_schema()::regnamespace),
                EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()
                AND table_name = '_name_generation' AND column_name = 'd')
                """, arguments: []
        ).first
        let hasTrigger: Bool = found?[0] ?? false, countsDeletions: Bool = found?[1] ?? false
        guard !hasTrigger || !countsDeletions else { return }
        if !countsDeletions {
            try db.execute(sql: "ALTER TABLE _name_generation ADD COLUMN d BIGINT NOT NULL DEFAULT 0")
        }
        try db.execute(
            sql: """
                CREATE OR REPLACE FUNCTION intents_name_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP IN ('DELETE', 'TRUNCATE') THEN UPDATE _name_generation SET n = n + 1, d = d + 1;
                    ELSE UPDATE _name_generation SET n = n + 1; END IF;
                    RETURN NULL;
                END $$;
                """)
        if !hasTrigger {
            try db.execute(
                sql: """
                    CREATE TRIGGER _name_keys_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON _name_keys
                        FOR EACH STATEMENT EXECUTE FUNCTION intents_name_keys_changed();
                    """)
        }
        // The index made anew (its ids begin again) or first counted: every copy is read again.
        try db.execute(sql: "UPDATE _name_generation SET n = n + 1, d = d + 1")
    }
}
