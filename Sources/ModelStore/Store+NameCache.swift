import Foundation
import GRDB
import IntentModel

/// The on-disk name index (`_name_keys`) held in memory, answering every look-up exactly as
/// `StoreTransaction.lookUpName` does (same candidates, same limits, same order), with no SQL.
///
/// A phrase looks up a few hundred spans; through SQLite each costs several statements, which is
/// most of a sentence's matching time. Up to `NameCache.residentLimit` keys the table is read
/// once (from the second phrase over an unchanged file) and kept while the file is unchanged
/// (`PRAGMA data_version` for other connections, the connection's total changes for this one);
/// above that every look-up stays on disk, where a million names cost nothing to open.
struct ResidentNameTable: Sendable {
    struct Entry: Sendable {
        var key: String
        var name: String
        var mask: UInt64
        var length: Int
        var keyBytes: [UInt8]
        var yekBytes: [UInt8]
    }

    struct Entity: Sendable {
        var entries: [Entry] = []
        /// key → entry.
        var exact: [String: Int] = [:]
        /// word → entries holding it, by (length, id): the order of `_name_words`' primary key.
        var byWord: [String: [(length: Int, entry: Int)]] = [:]
        /// length → entries ordered by the key's bytes, and by the reversed key's bytes (SQLite's
        /// BINARY order, what `_name_keys_head` and `_name_keys_tail` walk).
        var heads: [Int: [Int]] = [:]
        var tails: [Int: [Int]] = [:]
    }

    var entities: [String: Entity] = [:]
    var count = 0
    /// The highest id read: keys added later have higher ids (writers take turns on the store's
    /// write lock, so a committed key's id is above every key committed before it).
    var lastID: Int64 = 0

    /// One key of the index as read: (entity, key, name, mask, id).
    typealias Key = (entity: String, key: String, name: String, mask: Int64, id: Int64)

    /// The statement reading every key, in the order of their ids.
    static let allKeys = "SELECT entity, key, name, mask, id FROM _name_keys ORDER BY id"

    /// Reads every key of the index.
    init(_ db: Database) throws {
        let rows = try Row.fetchCursor(db, sql: Self.allKeys)
        try self.init { add in
            while let row = try rows.next() {
                let entity: String = row[0], key: String = row[1], name: String = row[2]
                let mask: Int64 = row[3], id: Int64 = row[4]
                add((entity, key, name, mask, id))
            }
        }
    }

    /// Reads every key of the index through a transaction's connection (PostgreSQL's).
    init(_ db: any SQLExecutor) throws {
        try self.init { add in
            try db.forEachRow(sql: Self.allKeys, arguments: []) { row in
                let entity: String = row[0], key: String = row[1], name: String = row[2]
                let mask: Int64 = row[3], id: Int64 = row[4]
                add((entity, key, name, mask, id))
            }
        }
    }

    /// The table of the keys `rows` gives, in the order of their ids.
    private init(_ rows: ((Key) -> Void) throws -> Void) rethrows {
        try rows { key in
            var entity = entities.removeValue(forKey: key.entity) ?? Entity()
            let index = Self.add(key, to: &entity)
            for word in Self.words(entity.entries[index].key) {
                entity.byWord[word, default: []].append((entity.entries[index].length, index))
            }
            entity.heads[entity.entries[index].length, default: []].append(index)
            entity.tails[entity.entries[index].length, default: []].append(index)
            entities[key.entity] = entity
            count += 1
            lastID = max(lastID, key.id)
        }
        for name in Array(entities.keys) {
            var entity = entities.removeValue(forKey: name)!
            for (word, list) in entity.byWord {
                entity.byWord[word] = list.sorted { ($0.length, $0.entry) < ($1.length, $1.entry) }
            }
            let entries = entity.entries
            for (length, list) in entity.heads {
                entity.heads[length] = list.sorted {
                    entries[$0].keyBytes.lexicographicallyPrecedes(entries[$1].keyBytes)
                }
            }
            for (length, list) in entity.tails {
                entity.tails[length] = list.sorted {
                    entries[$0].yekBytes.lexicographicallyPrecedes(entries[$1].yekBytes)
                }
            }
            entities[name] = entity
        }
    }

    /// Adds keys read after the table (ids above `lastID`, in order), each in its place in every
    /// list, as if the table had been read with them.
    mutating func append(_ keys: [Key]) {
        for key in keys where key.id > lastID {
            var entity = entities.removeValue(forKey: key.entity) ?? Entity()
            let index = Self.add(key, to: &entity)
            let entry = entity.entries[index]
            for word in Self.words(entry.key) {
                var list = entity.byWord[word] ?? []
                // After every entry of its length or shorter: it has the highest index.
                let at = Self.firstIndex(in: list) { $0.length > entry.length }
                list.insert((entry.length, index), at: at)
                entity.byWord[word] = list
            }
            let entries = entity.entries
            var heads = entity.heads[entry.length] ?? []
            heads.insert(
                index,
                at: Self.firstIndex(in: heads) { !entries[$0].keyBytes.lexicographicallyPrecedes(entry.keyBytes) })
            entity.heads[entry.length] = heads
            var tails = entity.tails[entry.length] ?? []
            tails.insert(
                index,
                at: Self.firstIndex(in: tails) { !entries[$0].yekBytes.lexicographicallyPrecedes(entry.yekBytes) })
            entity.tails[entry.length] = tails
            entities[key.entity] = entity
            count += 1
            lastID = key.id
        }
    }

    /// Appends the entry of `key` to `entity` (and its exact key); its index.
    private static func add(_ key: Key, to entity: inout Entity) -> Int {
        let index = entity.entries.count
        entity.entries.append(
            Entry(
                key: key.key, name: key.name, mask: UInt64(bitPattern: key.mask), length: key.key.count,
                keyBytes: Array(key.key.utf8), yekBytes: Array(String(key.key.reversed()).utf8)))
        entity.exact[key.key] = index
        return index
    }

    /// The first index of a list whose elements are all false, then all true, for `isAfter`.
    private static func firstIndex<T>(in list: [T], _ isAfter: (T) -> Bool) -> Int {
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if isAfter(list[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    private static func words(_ key: String) -> Set<String> { Set(key.split(separator: " ").map(String.init)) }

    /// `StoreTransaction.lookUpName`, in memory.
    func lookUp(_ text: String, entity entityName: QualifiedName) -> [(name: String, distance: Int)] {
        guard let table = entities[entityName.description] else { return [] }
        if let index = table.exact[text] { return [(table.entries[index].name, 0)] }
        let length = text.count
        guard let allowance = EntityNameKey.allowance(length) else { return [] }
        let limit = EntityNameKey.maximumCandidates
        let lower = length - allowance, upper = length + allowance
        // The rarest word among keys about this long; counting stops past the limit.
        var best: String?
        var bestCount = Int.max
        for word in Set(text.split(separator: " ").map(String.init)).sorted() {
            let count = min(Self.inRange(table.byWord[word] ?? [], lower, upper).count, limit + 1)
            if count > 0, count < bestCount {
                best = word
                bestCount = count
            }
        }
        let textMask = EntityNameKey.mask(text)
        var hits: [(name: String, distance: Int)] = []
        func consider(_ index: Int) {
            let entry = table.entries[index]
            guard (entry.mask ^ textMask).nonzeroBitCount <= allowance * 2 else { return }
            if let distance = EditDistance.within(entry.key, text, limit: allowance) {
                hits.append((entry.name, distance))
            }
        }
        if let best {
            guard bestCount <= limit else { return [] }
            for candidate in Self.inRange(table.byWord[best] ?? [], lower, upper) { consider(candidate.entry) }
        } else if !text.contains(" ") {
            let characters = Array(text)
            let half = characters.count / 2
            let head = Array(String(characters[..<half]).utf8)
            let daeh = Array(String(characters[half...].reversed()).utf8)
            let budget = limit * 4
            var read = 0
            for candidateLength in lower...upper {
                let byHead = Self.prefixed(table.heads[candidateLength] ?? [], head) { table.entries[$0].keyBytes }
                let byTail = Self.prefixed(table.tails[candidateLength] ?? [], daeh) { table.entries[$0].yekBytes }
                    .filter { !table.entries[$0].keyBytes.starts(with: head) }
                read += byHead.count + byTail.count
                if read > budget { return [] }
                for index in byHead { consider(index) }
                for index in byTail { consider(index) }
            }
        }
        let sorted = hits.sorted { $0.distance < $1.distance || ($0.distance == $1.distance && $0.name < $1.name) }
        return Array(sorted.prefix(limit))
    }

    /// The entries of a list ordered by length whose length is within `lower...upper`.
    private static func inRange(
        _ list: [(length: Int, entry: Int)], _ lower: Int, _ upper: Int
    ) -> ArraySlice<(length: Int, entry: Int)> {
        func firstIndex(atLeast length: Int) -> Int {
            var low = 0, high = list.count
            while low < high {
                let middle = (low + high) / 2
                if list[middle].length < length { low = middle + 1 } else { high = middle }
            }
            return low
        }
        return list[firstIndex(atLeast: lower)..<firstIndex(atLeast: upper + 1)]
    }

    /// The entries of a list ordered by `bytes` whose bytes begin with `prefix`.
    private static func prefixed(_ list: [Int], _ prefix: [UInt8], bytes: (Int) -> [UInt8]) -> ArraySlice<Int> {
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if bytes(list[middle]).lexicographicallyPrecedes(prefix) { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < list.count, bytes(list[end]).starts(with: prefix) { end += 1 }
        return list[low..<end]
    }
}

/// What a store keeps of its name index between phrases: the resident table, the state of the file
/// it was read from, and the state the last phrase saw.
///
/// Reading the table costs about 3 µs a key (30 ms for 10,000 names on a quiet machine), what a
/// few hundred look-ups on disk cost: it pays from the second phrase over an unchanged file, not for
/// a one-phrase process (`intents say`) nor for a phrase right after a write. So the first phrase
/// over a state of the file reads from disk, and the next over the same state reads the table.
final class NameCache: @unchecked Sendable {
    /// Keys held in memory at most; a bigger index is looked up on disk.
    static let residentLimit = 20_000

    struct Stamp: Equatable {
        var dataVersion: Int
        var totalChanges: Int
    }

    struct State {
        var table: ResidentNameTable?
        /// The state of the file `table` was read from (or found too big to read).
        var loaded: Stamp?
        /// The state of the file the last phrase saw.
        var lastPhrase: Stamp?
        /// On PostgreSQL, how many times keys had been deleted from the index when `table` was
        /// read: while that is unchanged, the keys added since (ids above the table's last) are
        /// all that changed, and are added to the table in place of reading it again.
        var deletions: Int?
        /// On PostgreSQL, whether the index had moved past `table` at the last phrase, and how many
        /// writes the store had committed then: the next phrase reads the keys added since with
        /// the generation (one statement, but dearer to plan than the generation alone) only when
        /// it expects some — after a phrase that found the index moved, or a write of its own.
        var movedAtLastPhrase = false
        var commitsAtLastPhrase = 0
    }

    private let lock = NSLock()
    private var state = State()

    func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

extension Store {
    /// The name look-up for one phrase: the resident table when the index is small enough, the file
    /// unchanged since the last phrase and no write open on this connection; else the on-disk
    /// index, each span read once.
    func namesForPhrase() -> any EntityNameLookup {
        guard let sqlite else { return postgresNamesForPhrase() }
        let resident: ResidentNameTable?? = try? sqlite.unsafeReentrantRead { db -> ResidentNameTable? in
            // Inside a write, what it has written so far, which may yet roll back: read from disk.
            guard !db.isInsideTransaction else { return nil }
            let stamp = NameCache.Stamp(
                dataVersion: try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0,
                totalChanges: db.totalChangesCount)
            return try nameCache.withLock { state -> ResidentNameTable? in
                if state.loaded == stamp { return state.table }
                defer { state.lastPhrase = stamp }
                guard state.lastPhrase == stamp else { return nil }
                let size = try Int.fetchOne(db.cachedStatement(sql: "SELECT max(id) FROM _name_keys")) ?? 0
                // Read in one transaction: a consistent table, whatever another process writes.
                var loaded: ResidentNameTable?
                if size <= NameCache.residentLimit {
                    try db.inTransaction(.deferred) {
                        loaded = try ResidentNameTable(db)
                        return .commit
                    }
                }
                state.table = loaded
                state.loaded = stamp
                return loaded
            }
        }
        if let resident = resident ?? nil { return ResidentNames(table: resident) }
        return DiskNames(store: self)
    }

    /// `namesForPhrase` on PostgreSQL: the same policy, with the store's name generation (a number
    /// every change of `_name_keys` moves, in the writing transaction: see
    /// `ensurePostgresNameGeneration`) as the file's version. One statement per phrase while the
    /// index is unchanged, whichever process writes. With a table in memory, that statement also
    /// brings the keys added since it was read (a request's own new name, another engine's): when
    /// no key was deleted since, they are added to the table, and a phrase after a write still
    /// looks names up in memory, without a second round trip.
    private func postgresNamesForPhrase() -> any EntityNameLookup {
        guard let postgres else { return DiskNames(store: self) }
        let commits = postgres.committedWrites
        let (countsDeletions, lastID) = nameCache.withLock { state in
            let expectsKeys = state.movedAtLastPhrase || state.commitsAtLastPhrase != commits
            return (state.deletions != nil, expectsKeys ? state.table?.lastID : nil)
        }
        // With a table in memory and new keys expected, the keys added since it was read come
        // with the generation, in one statement (one snapshot): a phrase after a write needs no
        // second round trip. A store only read (dry runs) reads the generation alone.
        var added: (after: Int64, keys: [ResidentNameTable.Key])?
        let row: SQLRow
        if countsDeletions, let lastID {
            guard let rows = try? postgres.executor.fetchAll(sql: Self.nameGenerationAndNewKeys, arguments: [lastID])
            else { return DiskNames(store: self) }
            var generation: SQLRow?
            var keys: [ResidentNameTable.Key] = []
            for row in rows {
                let id: Int64? = row[6]
                guard let id else {
                    generation = row
                    continue
                }
                let entity: String = row[2], key: String = row[3], name: String = row[4], mask: Int64 = row[5]
                keys.append((entity, key, name, mask, id))
            }
            guard let generation else { return DiskNames(store: self) }
            row = generation
            added = (lastID, keys.sorted { $0.id < $1.id })
        } else {
            guard
                let first = try? postgres.executor.fetchAll(
                    sql: countsDeletions ? Self.nameGenerationAndDeletions : Self.nameGenerationQuery, arguments: []
                ).first
            else { return DiskNames(store: self) }
            row = first
        }
        let generationValue: Int? = row[0]
        let deletions: Int? = countsDeletions ? row[1] : nil
        guard let generation = generationValue else { return DiskNames(store: self) }
        let stamp = NameCache.Stamp(dataVersion: generation, totalChanges: 0)
        nameCache.withLock { state in
            state.movedAtLastPhrase = state.loaded != nil && state.loaded != stamp
            state.commitsAtLastPhrase = commits
        }
        if postgres.isInsideTransaction {
            // Inside a write (a group's transaction): the table in memory when the generation this
            // transaction sees is the one it was read at (a write of this transaction to the index
            // moves the number past every committed one: the schema's lock keeps others out);
            // never read into memory here, since what this transaction wrote may yet roll back.
            let table = nameCache.withLock { state in state.loaded == stamp ? state.table : nil }
            return table.map { ResidentNames(table: $0) } ?? DiskNames(store: self)
        }
        if let deletions,
            let caughtUp = postgresNamesCaughtUp(postgres, at: stamp, deletions: deletions, added: added)
        {
            return caughtUp
        }
        let resident: ResidentNameTable? = nameCache.withLock { state in
            if state.loaded == stamp { return state.table }
            defer { state.lastPhrase = stamp }
            // The second phrase of this store reads the table even when the index changed in
            // between (a server's every executing request adds a name; from then on the table
            // catches up); after that, only over an index unchanged since the phrase before.
            guard state.lastPhrase == stamp || (state.loaded == nil && state.lastPhrase != nil) else { return nil }
            // The table and its generation read in one snapshot: a write in between is seen by neither.
            guard
                let (loaded, at, deletions) = try? postgres.transaction(
                    write: false,
                    { db -> (ResidentNameTable?, Int, Int) in
                        let row = try db.fetchAll(sql: Self.nameGenerationAndDeletionsIfCounted, arguments: []).first
                        let at: Int = row?[0] ?? 0, deletions: Int = row?[1] ?? -1
                        let size = try db.fetchValue(Int.self, sql: "SELECT coalesce(max(id), 0) FROM _name_keys") ?? 0
                        return (size <= NameCache.residentLimit ? try ResidentNameTable(db) : nil, at, deletions)
                    })
            else { return nil }
            let loadedStamp = NameCache.Stamp(dataVersion: at, totalChanges: 0)
            state.table = loaded
            state.loaded = loadedStamp
            // A store not migrated since deletions were counted (opened read-only): never caught up.
            state.deletions = deletions >= 0 ? deletions : nil
            return loadedStamp == stamp ? loaded : nil
        }
        if let resident { return ResidentNames(table: resident) }
        return DiskNames(store: self)
    }

    /// The generation and the count of statements that deleted keys.
    static let nameGenerationAndDeletions = "SELECT n, d FROM _name_generation"

    /// The same, with -1 for the count on a store whose table does not count them yet.
    static let nameGenerationAndDeletionsIfCounted =
        "SELECT n, coalesce((to_jsonb(g) ->> 'd')::int8, -1) FROM _name_generation g"

    /// Keys added at most in one catch-up: more is read as a new table.
    static let nameCatchUpLimit = 1_000

    /// The keys added after an id, in order (one more than a catch-up takes).
    static let newNameKeys = "SELECT entity, key, name, mask, id FROM _name_keys WHERE id > ? ORDER BY id LIMIT 1001"

    /// The generation and the count of deletions (the row whose last column is NULL), and the
    /// keys added after an id (as `newNameKeys`), in one statement.
    static let nameGenerationAndNewKeys = """
        SELECT n, d, NULL::text, NULL::text, NULL::text, NULL::int8, NULL::int8 FROM _name_generation
        UNION ALL (SELECT NULL, NULL, entity, key, name, mask, id FROM _name_keys WHERE id > ? ORDER BY id LIMIT 1001)
        """

    /// The table in memory at generation `stamp`: as it is when it was read at that generation,
    /// else brought up to it with the keys added since, when no key was deleted since it was read
    /// (`deletions` unchanged). Nil otherwise (the caller reads as before).
    ///
    /// The keys are read by a statement after the generation's: keys committed in between come
    /// with them and are kept, stamped with the older generation (the next phrase finds nothing
    /// more to add); a deletion in between is seen by the next phrase, as any write after a
    /// phrase's first statement is.
    private func postgresNamesCaughtUp(
        _ postgres: PostgresSession, at stamp: NameCache.Stamp, deletions: Int,
        added prefetched: (after: Int64, keys: [ResidentNameTable.Key])?
    ) -> ResidentNames? {
        enum Known {
            case current(ResidentNameTable)
            case behind(lastID: Int64)
        }
        let known: Known? = nameCache.withLock { state in
            guard let table = state.table, state.deletions == deletions else { return nil }
            return state.loaded == stamp ? .current(table) : .behind(lastID: table.lastID)
        }
        guard let known else { return nil }
        guard case .behind(let lastID) = known else {
            if case .current(let table) = known { return ResidentNames(table: table) }
            return nil
        }
        let added: [ResidentNameTable.Key]
        if let prefetched, prefetched.after == lastID {
            // Read with the generation: keys committed after it are not among them.
            added = prefetched.keys
        } else {
            guard let rows = try? postgres.executor.fetchAll(sql: Self.newNameKeys, arguments: [lastID]) else {
                return nil
            }
            added = rows.map { row in
                let entity: String = row[0], key: String = row[1], name: String = row[2]
                let mask: Int64 = row[3], id: Int64 = row[4]
                return (entity, key, name, mask, id)
            }
        }
        guard added.count <= Self.nameCatchUpLimit else { return nil }
        return nameCache.withLock { state -> ResidentNames? in
            // Another phrase of this store changed it meanwhile: read as before.
            guard state.deletions == deletions, var table = state.table, table.lastID == lastID,
                table.count + added.count <= NameCache.residentLimit
            else { return nil }
            if !added.isEmpty {
                // Out of the state while it changes: the one copy, changed in place.
                state.table = nil
                table.append(added)
                state.table = table
            }
            state.loaded = stamp
            state.lastPhrase = stamp
            return ResidentNames(table: table)
        }
    }

    /// Runs `body` on the connection without GRDB's `readOnly` (which sets `PRAGMA query_only`
    /// around each read, and every pragma write expires every prepared statement: a look-up
    /// prepared its statements again each time). `body` only reads.
    func readPrepared<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        guard let sqlite else { return try read(body) }
        return try sqlite.unsafeReentrantRead { db in try body(StoreTransaction(db: SQLiteExecutor(db), store: self)) }
    }
}

/// One phrase's look-ups in the resident table.
struct ResidentNames: EntityNameLookup {
    let table: ResidentNameTable
    func lookup(_ text: String, entity: QualifiedName) -> [(name: String, distance: Int)] {
        table.lookUp(text, entity: entity)
    }
}

/// One phrase's look-ups on disk, each span and entity read once.
final class DiskNames: EntityNameLookup, @unchecked Sendable {
    let store: Store
    private let lock = NSLock()
    private var known: [String: [(name: String, distance: Int)]] = [:]

    init(store: Store) { self.store = store }

    func lookup(_ text: String, entity: QualifiedName) -> [(name: String, distance: Int)] {
        let key = entity.description + "\u{0}" + text
        lock.lock()
        if let hits = known[key] {
            lock.unlock()
            return hits
        }
        lock.unlock()
        let hits = (try? store.readPrepared { try $0.lookUpName(text, entity: entity) })?.hits ?? []
        lock.lock()
        known[key] = hits
        lock.unlock()
        return hits
    }
}
