import GRDB
public import IntentModel

/// The entities' `matchBy` names as the phrase matcher looks them up, kept on disk beside the
/// full-text `_names` and written in the same transaction, so a process answers a phrase by reading
/// a few index rows instead of loading every name first.
///
/// - `_name_keys`: one row per folded name (its key) with the name as first written, how many
///   names carry it, its length and letter mask, and the key reversed (for typos at its start).
/// - `_name_words`: (word, key length) → keys holding the word: a typo's candidates share a word
///   with the text and are about as long, as in `EntityNameIndex`.
extension Store {
    static let nameIndexVersionKey = "names.version"
    /// The folding's version and the tables' layout: when either changes the index is made again.
    static let nameIndexVersion = EntityNameKey.version + ".2"

    /// Creates the name index; makes it again from `_names` when it is new, keyed by another
    /// folding or laid out otherwise.
    static func migrateNameIndex(_ db: any SQLExecutor) throws {
        let version = try db.fetchValue(
            String.self, sql: "SELECT value FROM _meta WHERE key = ?", arguments: [nameIndexVersionKey])
        guard version != nameIndexVersion else { return }
        // A key row is found by (entity, length, key) — an exact name's length is known — and
        // named by its rowid in the word rows, so its text is stored once.
        try db.execute(
            sql: db.isPostgres
                ? postgresNameIndexTables
                : """
                DROP TABLE IF EXISTS _name_keys;
                DROP TABLE IF EXISTS _name_words;
                CREATE TABLE _name_keys (
                    id INTEGER PRIMARY KEY, entity TEXT NOT NULL, length INTEGER NOT NULL, key TEXT NOT NULL,
                    name TEXT NOT NULL, holders INTEGER NOT NULL, mask INTEGER NOT NULL, yek TEXT NOT NULL);
                CREATE UNIQUE INDEX _name_keys_head ON _name_keys (entity, length, key);
                CREATE INDEX _name_keys_tail ON _name_keys (entity, length, yek);
                CREATE TABLE _name_words (
                    entity TEXT NOT NULL, word TEXT NOT NULL, length INTEGER NOT NULL, id INTEGER NOT NULL,
                    PRIMARY KEY (entity, word, length, id)) WITHOUT ROWID;
                """)
        var pending: [(String, String)] = []
        try db.forEachRow(sql: "SELECT entity, name FROM _names", arguments: []) {
            pending.append(($0["entity"], $0["name"]))
        }
        for (entity, name) in pending { try addIndexedName(name, entity: entity, db) }
        try db.execute(
            sql: "INSERT INTO _meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            arguments: [nameIndexVersionKey, nameIndexVersion])
    }

    /// Whether this store's file has the on-disk name index (a store opened read-only before any
    /// process migrated it has not).
    public var hasNameIndex: Bool {
        (try? read { transaction in
            try transaction.db.fetchValue(
                String.self, sql: "SELECT value FROM _meta WHERE key = ?", arguments: [Self.nameIndexVersionKey])
        }) == Self.nameIndexVersion
    }

    /// Makes the file look as one written before the name index (for the migration's test).
    package func dropNameIndexForTesting() throws {
        try write { transaction in
            try transaction.db.execute(sql: "DROP TABLE _name_keys; DROP TABLE _name_words")
            try transaction.db.execute(sql: "DELETE FROM _meta WHERE key = ?", arguments: [Self.nameIndexVersionKey])
        }
    }

    /// One more holder of `name`: a new key row and its words, or one more on an existing key.
    static func addIndexedName(_ name: String, entity: String, _ db: any SQLExecutor) throws {
        let (key, words) = EntityNameKey.key(name)
        guard !key.isEmpty else { return }
        let length = key.count
        if db.isPostgres {
            // One statement: one more holder, or the new key with its words (the words of a key
            // are its parts between spaces).
            try db.executeLater(
                sql: """
                    WITH up AS (
                        UPDATE _name_keys SET holders = holders + 1 WHERE entity = ? AND length = ? AND key = ? RETURNING id),
                    ins AS (
                        INSERT INTO _name_keys (entity, length, key, name, holders, mask, yek)
                        SELECT ?, ?, ?, ?, 1, ?, ? WHERE NOT EXISTS (SELECT 1 FROM up) RETURNING id, entity, length, key)
                    INSERT INTO _name_words (entity, word, length, id)
                    SELECT DISTINCT ins.entity, w.word, ins.length, ins.id FROM ins, unnest(string_to_array(ins.key, ' ')) AS w(word)
                    ON CONFLICT DO NOTHING
                    """,
                arguments: [
                    entity, length, key, entity, length, key, name, Int64(EntityNameKey.mask(key)),
                    Store.reversedKey(key),
                ])
            return
        }
        let updated = try db.execute(
            sql: "UPDATE _name_keys SET holders = holders + 1 WHERE entity = ? AND length = ? AND key = ?",
            arguments: [entity, length, key])
        guard updated == 0 else { return }
        let id = try db.insert(
            sql: "INSERT INTO _name_keys (entity, length, key, name, holders, mask, yek) VALUES (?, ?, ?, ?, 1, ?, ?)",
            arguments: [entity, length, key, name, Int64(EntityNameKey.mask(key)), Store.reversedKey(key)],
            returning: "id")
        let insertWord = "INSERT INTO _name_words (entity, word, length, id) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING"
        for word in Set(words) { try db.execute(sql: insertWord, arguments: [entity, word, length, id]) }
    }

    /// A key's characters in reverse (the `yek` column, for typos in a key's first half). ASCII
    /// keys are reversed byte by byte: going through `Character`s cost 4 % of an import.
    static func reversedKey(_ key: String) -> String {
        var bytes = Array(key.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return String(key.reversed()) }
        bytes.reverse()
        return String(decoding: bytes, as: UTF8.self)
    }

    /// One holder fewer of `name`: the key leaves the index with its last holder.
    static func removeIndexedName(_ name: String, entity: String, _ db: any SQLExecutor) throws {
        let (key, words) = EntityNameKey.key(name)
        guard !key.isEmpty else { return }
        let length = key.count
        if db.isPostgres {
            // One round trip: one holder fewer, or the key and its words gone with the last.
            try db.execute(
                sql: """
                    WITH up AS (
                        UPDATE _name_keys SET holders = holders - 1
                        WHERE entity = ? AND length = ? AND key = ? AND holders > 1 RETURNING id),
                    gone AS (
                        DELETE FROM _name_keys WHERE entity = ? AND length = ? AND key = ?
                        AND NOT EXISTS (SELECT 1 FROM up) RETURNING id, entity, length, key)
                    DELETE FROM _name_words w USING gone
                    WHERE w.entity = gone.entity AND w.word = ANY (string_to_array(gone.key, ' '))
                    AND w.length = gone.length AND w.id = gone.id
                    """,
                arguments: [entity, length, key, entity, length, key])
            return
        }
        let updated = try db.execute(
            sql:
                "UPDATE _name_keys SET holders = holders - 1 WHERE entity = ? AND length = ? AND key = ? AND holders > 1",
            arguments: [entity, length, key])
        guard updated == 0,
            let id = try db.fetchValue(
                Int64.self, sql: "SELECT id FROM _name_keys WHERE entity = ? AND length = ? AND key = ?",
                arguments: [entity, length, key])
        else { return }
        try db.execute(sql: "DELETE FROM _name_keys WHERE id = ?", arguments: [id])
        let deleteWord = "DELETE FROM _name_words WHERE entity = ? AND word = ? AND length = ? AND id = ?"
        for word in Set(words) { try db.execute(sql: deleteWord, arguments: [entity, word, length, id]) }
    }
}

/// A name look-up's answer and how many index rows it read (the work, whatever the store's size).
public struct NameLookupResult: Sendable {
    public var hits: [(name: String, distance: Int)]
    public var rowsRead: Int
}

extension StoreTransaction {
    /// Names of `entity` the folded text `text` could mean, as `EntityNameIndex.lookup` finds
    /// them, from the on-disk index: the exact key, else the keys within a typo's reach that share
    /// the text's rarest word and are about as long; a one-word text sharing no word is compared
    /// with the keys about as long that begin with its first half or end with its second half (so
    /// every one-edit typo is found, and more edits when they fall in one half); more than 1,024 of
    /// those is too vague, as more than 256 sharing its rarest word is.
    public func lookUpName(_ text: String, entity: QualifiedName) throws -> NameLookupResult {
        let entity = entity.description
        var rowsRead = 0
        if let name = try db.fetchValue(
            String.self, sql: "SELECT name FROM _name_keys WHERE entity = ? AND length = ? AND key = ?",
            arguments: [entity, text.count, text])
        {
            return NameLookupResult(hits: [(name, 0)], rowsRead: 1)
        }
        let length = text.count
        guard let allowance = EntityNameKey.allowance(length) else { return NameLookupResult(hits: [], rowsRead: 0) }
        let limit = EntityNameKey.maximumCandidates
        // The rarest word among keys about this long; counting stops past the limit.
        let counting = """
            SELECT count(*) FROM (SELECT 1 FROM _name_words
            WHERE entity = ? AND word = ? AND length BETWEEN ? AND ? LIMIT ?) AS w
            """
        var best: String?
        var bestCount = Int.max
        for word in Set(text.split(separator: " ").map(String.init)).sorted() {
            let count =
                try db.fetchValue(
                    Int.self, sql: counting,
                    arguments: [entity, word, length - allowance, length + allowance, limit + 1]) ?? 0
            rowsRead += count
            if count > 0, count < bestCount {
                best = word
                bestCount = count
            }
        }
        let textMask = EntityNameKey.mask(text)
        var hits: [(name: String, distance: Int)] = []
        func consider(_ rows: [SQLRow]) throws {
            for row in rows {
                rowsRead += 1
                let mask = UInt64(bitPattern: row[2] as Int64)
                guard (mask ^ textMask).nonzeroBitCount <= allowance * 2 else { continue }
                let key: String = row[0]
                if let distance = EditDistance.within(key, text, limit: allowance) { hits.append((row[1], distance)) }
            }
        }
        if let best {
            // Every word common among names this long: too vague to be a typo of one.
            guard bestCount <= limit else { return NameLookupResult(hits: [], rowsRead: rowsRead) }
            try consider(
                db.fetchAll(
                    sql: """
                        SELECT k.key, k.name, k.mask FROM _name_words w
                        JOIN _name_keys k ON k.id = w.id
                        WHERE w.entity = ? AND w.word = ? AND w.length BETWEEN ? AND ?
                        """,
                    arguments: [entity, best, length - allowance, length + allowance]))
        } else if !text.contains(" ") {
            let characters = Array(text)
            let half = characters.count / 2
            let head = String(characters[..<half])
            let daeh = String(characters[half...].reversed())
            // PostgreSQL takes no index hints (and needs none here).
            let head_ = db.isPostgres ? "" : " INDEXED BY _name_keys_head"
            let tail_ = db.isPostgres ? "" : " INDEXED BY _name_keys_tail"
            let byHead =
                "SELECT key, name, mask FROM _name_keys\(head_) WHERE entity = ? AND length = ? AND key >= ? AND key < ? LIMIT ?"
            let byTail =
                "SELECT key, name, mask FROM _name_keys\(tail_) WHERE entity = ? AND length = ? AND yek >= ? AND yek < ? AND key NOT BETWEEN ? AND ? LIMIT ?"
            // More names about as long that begin or end like it than this: too vague, as above.
            let budget = limit * 4
            let before = rowsRead
            for candidateLength in (length - allowance)...(length + allowance) {
                // Keys beginning with the head were read already: not twice.
                try consider(
                    db.fetchAll(
                        sql: byHead,
                        arguments: [
                            entity, candidateLength, head, head + "\u{10FFFF}", budget - (rowsRead - before) + 1,
                        ]))
                try consider(
                    db.fetchAll(
                        sql: byTail,
                        arguments: [
                            entity, candidateLength, daeh, daeh + "\u{10FFFF}", head, head + "\u{10FFFF}",
                            budget - (rowsRead - before) + 1,
                        ]))
                if rowsRead - before > budget { return NameLookupResult(hits: [], rowsRead: rowsRead) }
            }
        }
        let sorted = hits.sorted { $0.distance < $1.distance || ($0.distance == $1.distance && $0.name < $1.name) }
        return NameLookupResult(hits: Array(sorted.prefix(limit)), rowsRead: rowsRead)
    }
}

/// The store's names as the matcher's `EntityNameLookup`: a phrase reads them from the name index
/// held in memory while the file is unchanged, or (a big index, or inside a write: what that write
/// has written so far) from the on-disk index, each span once. Nothing is loaded before a phrase.
public struct StoredEntityNames: EntityNameLookup, Sendable {
    public let store: Store

    public init(store: Store) { self.store = store }

    public func lookup(_ text: String, entity: QualifiedName) -> [(name: String, distance: Int)] {
        (try? store.readPrepared { try $0.lookUpName(text, entity: entity) })?.hits ?? []
    }

    public func forPhrase() -> any EntityNameLookup { store.namesForPhrase() }
}

/// The store's names read from disk on every look-up (what `StoredEntityNames` did before it kept
/// them in memory): for comparing the two.
public struct UncachedEntityNames: EntityNameLookup, Sendable {
    public let store: Store

    public init(store: Store) { self.store = store }

    public func lookup(_ text: String, entity: QualifiedName) -> [(name: String, distance: Int)] {
        (try? store.read { try $0.lookUpName(text, entity: entity) })?.hits ?? []
    }
}
