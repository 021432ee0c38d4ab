public import Foundation
public import IntentModel

/// What the search index holds of one record: Spotlight's attribute set, already rendered.
public struct SearchDocument: Sendable, Hashable {
    public var title: String
    public var subtitle: String
    public var description: String
    public var keywords: [String]
    /// After this moment the item leaves the results.
    public var expires: Date?

    public init(title: String, subtitle: String, description: String, keywords: [String], expires: Date?) {
        self.title = title
        self.subtitle = subtitle
        self.description = description
        self.keywords = keywords
        self.expires = expires
    }
}

/// Renders records into search documents. The store calls it inside the transaction that writes
/// the record, so the index never lags behind the data; the runtime implements it with its evaluator.
public protocol SearchIndexing: Sendable {
    /// A fingerprint of what is searchable; when it differs from the one the store last indexed
    /// with, the store rebuilds the index as it opens.
    var signature: String { get }
    /// Whether records of `entity` are indexed at all.
    func isSearchable(_ entity: QualifiedName) -> Bool
    /// The record's document, or nil when it is not to be indexed (its `where` does not hold).
    func document(for record: Record, in transaction: StoreTransaction) throws -> SearchDocument?
}

/// How search text is cut into words, the same way for documents and queries: folded (lower case,
/// no diacritics, `ß` as `ss`), split at everything that is not a letter or a digit.
public enum SearchText {
    public static func words(_ text: String) -> [String] {
        if let words = asciiWords(text) { return words }
        return TextFolding.foldPhrase(text).split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }

    /// ASCII text's words without going through `Character`s (a third of an import's search
    /// indexing): lower case, split at every byte that is not a letter or a digit, as the general
    /// path does for ASCII. Nil for any other text.
    private static func asciiWords(_ text: String) -> [String]? {
        var words: [String] = []
        var word: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case 0x80...: return nil
            case 0x61...0x7A, 0x30...0x39: word.append(byte)
            case 0x41...0x5A: word.append(byte + 0x20)
            default:
                guard !word.isEmpty else { continue }
                words.append(String(decoding: word, as: UTF8.self))
                word.removeAll(keepingCapacity: true)
            }
        }
        if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }

    /// The folded words joined by spaces: what the full-text table holds.
    static func folded(_ text: String) -> String { words(text).joined(separator: " ") }
}

/// One term of a search query as the store runs it: a word, or a word's prefix.
public struct SearchTerm: Sendable, Hashable {
    public var text: String
    public var prefix: Bool

    public init(_ text: String, prefix: Bool) {
        self.text = text
        self.prefix = prefix
    }
}

/// One row the full-text index gave for a query, with the folded text that matched and its bm25.
public struct SearchRow: Sendable, Hashable {
    public var entity: String
    public var record: String
    public var title: String
    public var subtitle: String
    /// Folded words of the title, description and keywords, for telling how each query word matched.
    public var titleWords: [String]
    public var descriptionWords: [String]
    public var keywordWords: [String]
    /// FTS5's bm25 (weights title 10, keywords 5, description 2): lower is better. For a document
    /// not yet moved into the FTS5 table, the same formula without its idf part.
    public var bm25: Double
    /// Written since the last flush into the FTS5 table.
    public var pending = false
}
