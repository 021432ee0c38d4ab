public import Foundation
import GRDB
public import IntentModel

/// The store's part in the app's presence: the search index (`_search`, `_search_items`,
/// `_search_vocab`), donations with how they were invoked, and the state of tips.
extension Store {
    /// Tables for search, donations and tips; run inside the migration's transaction.
    func migratePresence(_ db: any SQLExecutor) throws {
        // PostgreSQL's tables are made with the others, its donations with every column.
        if db.isPostgres { return }
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE IF NOT EXISTS _search USING fts5(
                    title, body, keywords, tokenize = 'unicode61 remove_diacritics 2');
                CREATE TABLE IF NOT EXISTS _search_items (
                    doc INTEGER PRIMARY KEY AUTOINCREMENT, entity TEXT NOT NULL, record TEXT NOT NULL, title TEXT NOT NULL,
                    subtitle TEXT NOT NULL, expires TEXT, UNIQUE (entity, record));
                -- Documents written since the last flush into _search, and _search rows whose item is gone:
                -- FTS5 writes a segment per transaction, so single writes go here and move in batches.
                CREATE TABLE IF NOT EXISTS _search_pending (
                    doc INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL, keywords TEXT NOT NULL);
                CREATE TABLE IF NOT EXISTS _search_dead (doc INTEGER PRIMARY KEY);
                CREATE TABLE IF NOT EXISTS _search_vocab (term TEXT PRIMARY KEY) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS _meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS _donation_refs (
                    record TEXT NOT NULL, donation INTEGER NOT NULL, PRIMARY KEY (record, donation)) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS _suggest_stats (
                    intent TEXT NOT NULL, key TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (intent, key)) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS _suggest_stats_by_count ON _suggest_stats (intent, count);
                CREATE TABLE IF NOT EXISTS _tips (
                    key TEXT PRIMARY KEY, shown TEXT, dismissed INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
                """)
        let columns = try db.columns(in: "_donations")
        if !columns.contains("via") {
            try db.execute(sql: "ALTER TABLE _donations ADD COLUMN via TEXT NOT NULL DEFAULT 'phrase'")
        }
        if !columns.contains("previous") {
            try db.execute(sql: "ALTER TABLE _donations ADD COLUMN previous TEXT")
        }
        // The execution that donated: `undo` takes its donation back with it.
        if !columns.contains("execution") {
            try db.execute(sql: "ALTER TABLE _donations ADD COLUMN execution INTEGER")
        }
    }

    /// Rebuilds the search index when what is searchable changed since it was built (the
    /// `signature` of the indexer differs from the one stored).
    func reindexIfDeclarationsChanged() throws(StoreError) {
        guard let indexer else { return }
        do {
            let stored = try read { transaction in try transaction.meta("search.signature") }
            guard stored != indexer.signature else { return }
            _ = try write { transaction in try transaction.reindexSearch() }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .unusable(path: path, reason: Self.reason(error))
        }
    }
}

extension StoreTransaction {
    func meta(_ key: String) throws -> String? {
        try db.fetchValue(String.self, sql: "SELECT value FROM _meta WHERE key = ?", arguments: [key])
    }

    func setMeta(_ key: String, _ value: String?) throws {
        if let value {
            try db.execute(
                sql:
                    "INSERT INTO _meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                arguments: [key, value])
        } else {
            try db.execute(sql: "DELETE FROM _meta WHERE key = ?", arguments: [key])
        }
    }

    // MARK: Search index
    //
    // An item is a row of `_search_items` (what a hit shows) and its folded text, first in
    // `_search_pending`, then, once 64 documents have gathered, in the FTS5 table `_search` (a
    // flush moves them in one statement and drops the FTS rows listed in `_search_dead`). A write
    // thus costs a few B-tree inserts instead of an FTS5 segment per transaction; a search reads the
    // FTS5 table and the pending rows, and only items that still exist.

    /// Documents gathered before they move into the FTS5 table together: a flush costs about one
    /// FTS5 segment write, and every search reads the pending documents.
    static let searchFlushSize: Int64 = 64

    /// Indexes `record` again: called by every write of a record, in its transaction. A record
    /// whose `where` no longer holds leaves the index.
    func indexForSearch(_ record: Record, _ table: Store.Table, replacing: Bool) throws {
        guard let indexer = store.indexer, indexer.isSearchable(table.entity.name) else { return }
        if replacing { try forgetSearch(record.id, table) }
        guard let document = try indexer.document(for: record, in: self) else { return }
        let doc = try insertSearchItem(document, entity: table.name, id: record.id)
        let (title, body, keywords) = Self.searchText(document)
        if !db.isPostgres {
            try db.execute(
                sql: "INSERT INTO _search_pending (doc, title, body, keywords) VALUES (?, ?, ?, ?)",
                arguments: [
                    doc, title.joined(separator: " "), body.joined(separator: " "), keywords.joined(separator: " "),
                ])
        }
        let words = Set(title + body + keywords)
        if !words.isEmpty {
            // Every word in one statement (PostgreSQL: one round trip; SQLite: one statement's cost
            // instead of one a word), sorted: the same words the same statement.
            let sorted = words.sorted()
            for start in stride(from: 0, to: sorted.count, by: 1_000) {
                let chunk = sorted[start..<min(start + 1_000, sorted.count)]
                try db.executeLater(
                    sql: "INSERT INTO _search_vocab (term) VALUES "
                        + Array(repeating: "(?)", count: chunk.count).joined(separator: ", ")
                        + " ON CONFLICT DO NOTHING",
                    arguments: chunk.map { $0 })
            }
        }
        if !db.isPostgres, doc % Self.searchFlushSize == 0 { try flushSearch() }
    }

    private func insertSearchItem(_ document: SearchDocument, entity: String, id: String) throws -> Int64 {
        guard db.isPostgres else {
            return try db.insert(
                sql: "INSERT INTO _search_items (entity, record, title, subtitle, expires) VALUES (?, ?, ?, ?, ?)",
                arguments: [entity, id, document.title, document.subtitle, document.expires.map(ISODate.format)],
                returning: "doc")
        }
        // PostgreSQL: the folded words and their tsvector in the item's row (title A, keywords B, body C).
        let (title, body, keywords) = Self.searchText(document)
        let (ft, fb, fk) = (title.joined(separator: " "), body.joined(separator: " "), keywords.joined(separator: " "))
        // Its number is SQLite's business only (the pending documents): held with the other writes.
        try db.executeLater(
            sql: """
                INSERT INTO _search_items (entity, record, title, subtitle, expires, ft, fb, fk, words)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, setweight(to_tsvector('simple', ?), 'A')
                    || setweight(to_tsvector('simple', ?), 'B') || setweight(to_tsvector('simple', ?), 'C'))
                """,
            arguments: [
                entity, id, document.title, document.subtitle, document.expires.map(ISODate.format), ft, fb, fk, ft, fk,
                fb,
            ])
        return 0
    }

    static func searchText(_ document: SearchDocument) -> ([String], [String], [String]) {
        (
            SearchText.words(document.title), SearchText.words(document.description),
            document.keywords.flatMap(SearchText.words)
        )
    }

    /// Moves the pending documents into the FTS5 table and drops the rows of removed items.
    public func flushSearch() throws {
        guard !db.isPostgres else { return }
        try db.execute(
            sql: """
                INSERT INTO _search (rowid, title, body, keywords) SELECT doc, title, body, keywords FROM _search_pending;
                DELETE FROM _search_pending;
                """)
        // A delete makes FTS5 write out what it holds in memory: only when there is something to delete.
        if try db.fetchValue(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM _search_dead)") == true {
            try db.execute(
                sql: "DELETE FROM _search WHERE rowid IN (SELECT doc FROM _search_dead); DELETE FROM _search_dead;")
        }
    }

    /// Removes a record from the search index (delete, undo, or an update that makes `where` false).
    func forgetSearch(_ id: String, _ table: Store.Table) throws {
        guard let indexer = store.indexer, indexer.isSearchable(table.entity.name) else { return }
        guard
            let doc = try db.fetchValue(
                Int64.self, sql: "SELECT doc FROM _search_items WHERE entity = ? AND record = ?",
                arguments: [table.name, id])
        else { return }
        try db.execute(sql: "DELETE FROM _search_items WHERE doc = ?", arguments: [doc])
        guard !db.isPostgres else { return }
        if try db.execute(sql: "DELETE FROM _search_pending WHERE doc = ?", arguments: [doc]) == 0 {
            try db.execute(sql: "INSERT OR IGNORE INTO _search_dead (doc) VALUES (?)", arguments: [doc])
        }
    }

    /// Builds the search index anew from every record of every searchable entity; returns how many
    /// records it holds.
    @discardableResult
    public func reindexSearch() throws -> Int {
        try db.execute(
            sql: db.isPostgres
                ? "DELETE FROM _search_items; DELETE FROM _search_vocab;"
                : """
                DELETE FROM _search; DELETE FROM _search_items; DELETE FROM _search_vocab;
                DELETE FROM _search_pending; DELETE FROM _search_dead;
                """)
        var indexed = 0
        if let indexer = store.indexer {
            let insert = "INSERT INTO _search (rowid, title, body, keywords) VALUES (?, ?, ?, ?)"
            for table in store.tables.values.sorted(by: { $0.name < $1.name })
            where indexer.isSearchable(table.entity.name) {
                var vocabulary: Set<String> = []
                try db.forEachRow(sql: "SELECT * FROM \(table.quoted)", arguments: []) { row in
                    // A record another program made unreadable stays out of the index (reading it
                    // anywhere else names it); the index is rebuilt whole, so it is not lost.
                    guard let record = try? record(from: row, table) else { return }
                    guard let document = try indexer.document(for: record, in: self) else { return }
                    let doc = try insertSearchItem(document, entity: table.name, id: record.id)
                    let (title, body, keywords) = Self.searchText(document)
                    if !db.isPostgres {
                        try db.execute(
                            sql: insert,
                            arguments: [
                                doc, title.joined(separator: " "), body.joined(separator: " "),
                                keywords.joined(separator: " "),
                            ])
                    }
                    vocabulary.formUnion(title)
                    vocabulary.formUnion(body)
                    vocabulary.formUnion(keywords)
                    indexed += 1
                }
                let statement = "INSERT INTO _search_vocab (term) VALUES (?) ON CONFLICT DO NOTHING"
                for word in vocabulary { try db.execute(sql: statement, arguments: [word]) }
            }
        }
        try setMeta("search.signature", store.indexer?.signature ?? "")
        return indexed
    }

    /// How many items the search index holds.
    public func searchIndexCount() throws -> Int {
        try db.fetchValue(Int.self, sql: "SELECT count(*) FROM _search_items") ?? 0
    }

    /// How many of the newest matching documents are ranked: bounded work for words in many documents.
    public static let searchWindow = 1_000

    /// Rows whose text has, for every group, one of its terms; best bm25 first among the newest
    /// `searchWindow` that match, expired ones left out. Pending documents (not in the FTS5 table yet) are matched here, word by word, and come
    /// with a bm25 of 0.
    public func searchIndex(_ groups: [[SearchTerm]], now: Date, limit: Int) throws -> [SearchRow] {
        let moment = ISODate.format(now)
        var results: [SearchRow] = []
        let pending: [SQLRow]
        if db.isPostgres {
            // The items whose tsvector holds every group's word (or prefix), among the newest
            // `searchWindow`; each scored below as SQLite scores the documents not yet in FTS5.
            let clauses = groups.compactMap { terms -> String? in
                let alternatives = terms.filter { !$0.text.isEmpty }.map {
                    PostgresText.term($0.text, prefix: $0.prefix)
                }
                return alternatives.isEmpty ? nil : "(" + alternatives.joined(separator: " | ") + ")"
            }
            guard !clauses.isEmpty, clauses.count == groups.count else { return [] }
            pending = try db.fetchAll(
                sql: """
                    SELECT entity, record, title, subtitle, ft, fb, fk FROM (
                        SELECT * FROM _search_items WHERE words @@ to_tsquery('simple', ?) ORDER BY doc DESC LIMIT ?) AS i
                    WHERE expires IS NULL OR expires > ?
                    ORDER BY doc
                    """,
                arguments: [clauses.joined(separator: " & "), Self.searchWindow, moment])
        } else {
            let clauses = groups.compactMap { terms -> String? in
                let alternatives = terms.compactMap { term -> String? in
                    let clean = term.text.filter { $0 != "\"" }
                    guard !clean.isEmpty else { return nil }
                    return "\"" + clean + "\"" + (term.prefix ? "*" : "")
                }
                return alternatives.isEmpty ? nil : "(" + alternatives.joined(separator: " OR ") + ")"
            }
            guard !clauses.isEmpty, clauses.count == groups.count else { return [] }
            // The window is ranked on rowid and bm25 alone; the text is read for the few rows kept
            // (by rowid, after ranking): reading every window row's columns cost as much as bm25.
            let rows = try db.fetchAll(
                sql: """
                    SELECT i.entity, i.record, i.title, i.subtitle, s.title AS ft, s.body AS fb, s.keywords AS fk, m.score
                    FROM (SELECT rowid, score FROM (
                            SELECT rowid, bm25(_search, 10.0, 2.0, 5.0) AS score
                            FROM _search WHERE _search MATCH ? ORDER BY rowid DESC LIMIT ?)
                          ORDER BY score LIMIT ?) m
                    CROSS JOIN _search_items i ON i.doc = m.rowid
                    CROSS JOIN _search s ON s.rowid = m.rowid
                    WHERE i.expires IS NULL OR i.expires > ?
                    ORDER BY m.score
                    """,
                arguments: [clauses.joined(separator: " AND "), Self.searchWindow, limit, moment])
            results = rows.map { Self.searchRow($0, score: $0[7]) }
            pending = try db.fetchAll(
                sql: """
                    SELECT i.entity, i.record, i.title, i.subtitle, p.title AS ft, p.body AS fb, p.keywords AS fk
                    FROM _search_pending p CROSS JOIN _search_items i ON i.doc = p.doc
                    WHERE i.expires IS NULL OR i.expires > ?
                    """, arguments: [moment])
        }
        for row in pending {
            var candidate = Self.searchRow(row, score: 0)
            let fields = [
                (candidate.titleWords, 10.0), (candidate.keywordWords, 5.0), (candidate.descriptionWords, 2.0),
            ]
            var score = 0.0
            var matchesAll = true
            for terms in groups {
                func hits(_ word: String) -> Bool {
                    terms.contains { $0.prefix ? word.hasPrefix($0.text) : word == $0.text }
                }
                var found = false
                for (words, weight) in fields {
                    // bm25's term part with k1 = 1.2, b = 0.75 and the field's length against 8 words;
                    // no idf: the pending documents are too few to say how rare a word is.
                    let frequency = Double(words.filter(hits).count)
                    guard frequency > 0 else { continue }
                    found = true
                    let norm = 1.2 * (0.25 + 0.75 * Double(words.count) / 8)
                    score -= weight * frequency * 2.2 / (frequency + norm)
                }
                if !found {
                    matchesAll = false
                    break
                }
            }
            guard matchesAll else { continue }
            candidate.bm25 = score / 10
            candidate.pending = true
            results.append(candidate)
        }
        return results
    }

    /// A row of `entity, record, title, subtitle, ft, fb, fk[, score]`, read by position (GRDB's
    /// lookup by name costs more than the rest of a row here).
    private static func searchRow(_ row: SQLRow, score: Double) -> SearchRow {
        let words = { (column: Int) -> [String] in
            (row[column] as String? ?? "").split(separator: " ").map(String.init)
        }
        return SearchRow(
            entity: row[0], record: row[1], title: row[2], subtitle: row[3],
            titleWords: words(4), descriptionWords: words(5), keywordWords: words(6), bm25: score)
    }

    /// Indexed words starting with `prefix`, at most `limit` of them, in order.
    public func searchVocabulary(prefix: String, limit: Int) throws -> [String] {
        try db.fetchValues(
            String.self, sql: "SELECT term FROM _search_vocab WHERE term >= ? AND term < ? ORDER BY term LIMIT ?",
            arguments: [prefix, prefix + "\u{10FFFF}", limit])
    }

    // MARK: Donations

    /// Records a donation: the intent, its donated parameters, the moment, how it was invoked, and
    /// the records it refers to (deleting one of them deletes the donation). The counts suggestions
    /// read are kept up to date in the same transaction (`SuggestionKeys`).
    public func donate(
        intent: QualifiedName, parameters: [String: JSONValue], via: Invocation, records: [String], at: Date,
        execution: Int64? = nil
    ) throws {
        try donate(
            intent: intent, parameters: parameters, via: via, records: records, at: at,
            of: execution.map(DonatedExecution.number) ?? .none)
    }

    /// The execution a donation comes from.
    enum DonatedExecution {
        case none
        case number(Int64)
        /// PostgreSQL: the one this transaction journaled last, its number not read back (the
        /// sequence's last value in this session).
        case journaledLast
    }

    func donate(
        intent: QualifiedName, parameters: [String: JSONValue], via: Invocation, records: [String], at: Date,
        of donated: DonatedExecution
    ) throws {
        let encoded = JSONText.compact(.object(parameters))
        var execution: Int64?
        if case .number(let number) = donated { execution = number }
        if db.isPostgres {
            // PostgreSQL: nothing read back, so all of it is held with the other writes. The
            // intent before this one is read in each statement that needs it, the donation's
            // number is the sequence's last value in this session.
            let before = "(SELECT intent FROM _executions WHERE undone = 0 ORDER BY id DESC LIMIT 1 OFFSET 1)"
            var arguments: [(any DatabaseValueConvertible)?] = [
                intent.description, encoded, ISODate.format(at), via.rawValue,
            ]
            let executionValue: String
            switch donated {
            case .journaledLast: executionValue = "currval(pg_get_serial_sequence('_executions', 'id'))"
            case .number, .none:
                executionValue = "?"
                arguments.append(execution)
            }
            try db.executeLater(
                sql: """
                    INSERT INTO _donations (intent, parameters, at, via, previous, execution)
                    VALUES (?, ?, ?, ?, \(before), \(executionValue))
                    """,
                arguments: arguments)
            for record in Set(records).sorted() {
                try db.executeLater(
                    sql: """
                        INSERT INTO _donation_refs (record, donation)
                        VALUES (?, currval(pg_get_serial_sequence('_donations', 'id'))) ON CONFLICT DO NOTHING
                        """,
                    arguments: [record])
            }
            try count(intent.description, parameters: parameters, at: at, previous: nil, by: 1)
            try db.executeLater(
                sql: """
                    INSERT INTO _suggest_stats (intent, key, count) SELECT ?, 'after:' || p.intent, 1 FROM \(before) AS p
                    ON CONFLICT (intent, key) DO UPDATE SET count = _suggest_stats.count + excluded.count
                    """,
                arguments: [intent.description])
            return
        }
        let previous = try lastExecutedIntent(before: intent)
        let donation = try db.insert(
            sql: "INSERT INTO _donations (intent, parameters, at, via, previous, execution) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [intent.description, encoded, ISODate.format(at), via.rawValue, previous, execution],
            returning: "id")
        for record in Set(records) {
            try db.executeLater(
                sql: "INSERT INTO _donation_refs (record, donation) VALUES (?, ?) ON CONFLICT DO NOTHING",
                arguments: [record, donation])
        }
        try count(intent.description, parameters: parameters, at: at, previous: previous, by: 1)
    }

    /// The intent executed before the one being journaled now (the newest execution is that one).
    func lastExecutedIntent(before intent: QualifiedName) throws -> String? {
        let rows = try db.fetchValues(
            String.self, sql: "SELECT intent FROM _executions WHERE undone = 0 ORDER BY id DESC LIMIT 2")
        return rows.count == 2 ? rows[1] : nil
    }

    private func count(
        _ intent: String, parameters: [String: JSONValue], at: Date, previous: String?, by delta: Int
    ) throws {
        let statement = """
            INSERT INTO _suggest_stats (intent, key, count) VALUES (?, ?, ?)
            ON CONFLICT (intent, key) DO UPDATE SET count = _suggest_stats.count + excluded.count
            """
        let keys = SuggestionKeys.keys(parameters: parameters, at: at, previous: previous, clock: store.clock)
        if db.isPostgres, !keys.isEmpty {
            // PostgreSQL: every count in one round trip (the keys are distinct, as one row each needs).
            var arguments: [(any DatabaseValueConvertible)?] = []
            for key in Set(keys).sorted() { arguments += [intent, key, delta] }
            try db.executeLater(
                sql: "INSERT INTO _suggest_stats (intent, key, count) VALUES "
                    + Array(repeating: "(?, ?, ?)", count: arguments.count / 3).joined(separator: ", ")
                    + " ON CONFLICT (intent, key) DO UPDATE SET count = _suggest_stats.count + excluded.count",
                arguments: arguments)
        } else {
            for key in keys { try db.execute(sql: statement, arguments: [intent, key, delta]) }
        }
        if delta < 0 {
            try db.executeLater(sql: "DELETE FROM _suggest_stats WHERE intent = ? AND count <= 0", arguments: [intent])
        }
    }

    /// The counts of each of `intents` (`App.Intent`) that has donations, for suggestions: totals,
    /// hours, weekdays, predecessors, days (the last `days`), and the parameter values used in at
    /// least `share` of its donations (and twice). Each part is a range of an index, so the cost does
    /// not grow with the number of donations.
    public func suggestionCounts(
        intents: [String], now: Date, days: Int = 90, share: Double = 0.3
    ) throws -> [String: [String: Int]] {
        var counts: [String: [String: Int]] = [:]
        let cutoff = SuggestionKeys.dayKey(store.clock.day(-days, from: now), clock: store.clock)
        let range = "SELECT key, count FROM _suggest_stats WHERE intent = ? AND key >= ? AND key < ?"
        let frequent = "SELECT key, count FROM _suggest_stats WHERE intent = ? AND count >= ? ORDER BY count DESC"
        let ranges = [("after:", "after;"), ("h:", "h;"), ("n", "n:"), ("w:", "w;"), (cutoff, "day;")]
        for intent in intents {
            var own: [String: Int] = [:]
            for (low, high) in ranges {
                for row in try db.fetchAll(sql: range, arguments: [intent, low, high]) {
                    own[row["key"]] = row["count"]
                }
            }
            guard let total = own["n"] else { continue }
            let least = max(2, Int((Double(total) * share).rounded(.up)))
            for row in try db.fetchAll(sql: frequent, arguments: [intent, least]) {
                let key: String = row["key"]
                if key.hasPrefix("v:") { own[key] = row["count"] }
            }
            counts[intent] = own
        }
        return counts
    }

    /// The intent of the newest execution, for what follows it.
    public func lastExecutedIntent() throws -> String? {
        try db.fetchValue(String.self, sql: "SELECT intent FROM _executions WHERE undone = 0 ORDER BY id DESC LIMIT 1")
    }

    /// Donations oldest first (at most the newest `limit`): (intent, parameters JSON, at, via).
    public func donationHistory(limit: Int = 100_000) throws -> [(
        intent: String, parameters: String, at: Date, via: Invocation
    )] {
        try db.fetchAll(
            sql: "SELECT * FROM (SELECT * FROM _donations ORDER BY id DESC LIMIT ?) AS d ORDER BY id",
            arguments: [limit]
        ).map {
            let at: String = $0["at"]
            return (
                $0["intent"], $0["parameters"], ISODate.parse(at, timeZone: .gmt) ?? Date(timeIntervalSince1970: 0),
                ($0["via"] as String?).flatMap(Invocation.init(rawValue:)) ?? .phrase
            )
        }
    }

    /// Forgets every donation of `intent` (`App.Intent`); returns how many.
    @discardableResult
    public func forgetDonations(intent: QualifiedName) throws -> Int {
        try db.execute(
            sql: "DELETE FROM _donation_refs WHERE donation IN (SELECT id FROM _donations WHERE intent = ?)",
            arguments: [intent.description])
        let forgotten = try db.execute(sql: "DELETE FROM _donations WHERE intent = ?", arguments: [intent.description])
        try db.execute(
            sql: "DELETE FROM _suggest_stats WHERE intent = ? OR key = ?",
            arguments: [intent.description, "after:" + intent.description])
        return forgotten
    }

    /// Forgets the donations that refer to a record that was deleted.
    func forgetDonations(referencing record: String) throws {
        try forgetDonations(where: "id IN (SELECT donation FROM _donation_refs WHERE record = ?)", [record])
        try db.execute(sql: "DELETE FROM _donation_refs WHERE record = ?", arguments: [record])
    }

    /// Forgets the donation an execution made: an undone intent is not learned from.
    func forgetDonations(ofExecution execution: Int64) throws {
        try db.execute(
            sql: "DELETE FROM _donation_refs WHERE donation IN (SELECT id FROM _donations WHERE execution = ?)",
            arguments: [execution])
        try forgetDonations(where: "execution = ?", [execution])
    }

    /// Deletes the donations `condition` selects and takes them out of the suggestion statistics.
    private func forgetDonations(where condition: String, _ arguments: [(any DatabaseValueConvertible)?]) throws {
        let rows = try db.fetchAll(
            sql: "SELECT intent, parameters, at, previous FROM _donations WHERE \(condition)", arguments: arguments)
        for row in rows {
            let text: String = row["parameters"]
            let at: String = row["at"]
            guard case .object(let parameters)? = try? JSONText.decode(JSONValue.self, from: text),
                let moment = ISODate.parse(at, timeZone: .gmt)
            else { continue }
            try count(row["intent"], parameters: parameters, at: moment, previous: row["previous"], by: -1)
        }
        try db.execute(sql: "DELETE FROM _donations WHERE \(condition)", arguments: arguments)
    }

    // MARK: Tips

    /// Each tip's state by key: when it was shown, and whether it was dismissed.
    public func tipStates() throws -> [String: (shown: Date?, dismissed: Bool)] {
        var states: [String: (Date?, Bool)] = [:]
        for row in try db.fetchAll(sql: "SELECT key, shown, dismissed FROM _tips") {
            let shown: String? = row["shown"]
            states[row["key"]] = (shown.flatMap { ISODate.parse($0, timeZone: .gmt) }, row["dismissed"])
        }
        return states
    }

    public func markTipShown(_ key: String, at: Date) throws {
        try db.execute(
            sql: "INSERT INTO _tips (key, shown) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET shown = excluded.shown",
            arguments: [key, ISODate.format(at)])
    }

    public func dismissTip(_ key: String) throws {
        try db.execute(
            sql: "INSERT INTO _tips (key, dismissed) VALUES (?, 1) ON CONFLICT(key) DO UPDATE SET dismissed = 1",
            arguments: [key])
    }

    /// Whether tips are turned off (`:tips off`), for every prompt on this store.
    public func tipsOff() throws -> Bool { try meta("tips.off") == "1" }

    public func setTipsOff(_ off: Bool) throws { try setMeta("tips.off", off ? "1" : nil) }
}
