import Foundation
import IntentModel

/// What `store import` checks of each record beyond its values' types, in functions the import's
/// loops call (the streamed and the checked import alike): an id names one record and can stand
/// in a link, a url is a URL, and no id comes twice in one file.
struct ImportChecks {
    /// Longest id taken: a UUID is 36 characters; keys from other systems get room to spare.
    static let maximumIDLength = 128

    /// Why `id` cannot name a record; nil when it can. An id is 1 to 128 of the characters a URL
    /// keeps as they are (letters, digits, `-`, `.`, `_`, `~`): it ends up in links
    /// (`radar://open/<id>`) and messages, so it may not be empty, hold a space, a slash or a
    /// control character. `intents` makes lowercase UUIDs; keys from other systems (`t42`) are fine.
    static func problem(withID id: String) -> String? {
        if id.isEmpty { return "the id is empty" }
        if id.utf8.count > maximumIDLength {
            return "the id is longer than \(maximumIDLength) characters"
        }
        let allowed = id.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", ".", "_", "~": true
            default: false
            }
        }
        if !allowed {
            return "the id \(JSONText.compact(.string(id))) may hold only letters, digits, '-', '.', '_' and '~'"
        }
        return nil
    }

    /// Why `text` is not a URL; nil when it is. A URL has a scheme (`https:`, `file:`, `mailto:`),
    /// no white space and parses, as a phrase's URL does.
    static func problem(withURL text: String) -> String? {
        guard !text.contains(where: \.isWhitespace), let url = URL(string: text), let scheme = url.scheme,
            !scheme.isEmpty
        else { return "\(JSONText.compact(.string(text))) is not a URL (a URL begins with a scheme, as in https://)" }
        return nil
    }

    /// Ids seen so far in this import, as 64-bit hashes: a few bytes a record, so the memory of a
    /// big import stays small. A hash seen twice is confirmed by `confirm` (a real duplicate, or —
    /// very rarely — two ids with one hash).
    private var seen: Set<UInt64> = []

    /// Refuses the second record of one entity with one id: the file would say two records where
    /// the store keeps one. `confirm` says whether the id really was imported before in this file.
    mutating func admit(id: String, entity: QualifiedName, confirm: () throws -> Bool) throws {
        guard !seen.insert(Self.hash(entity.description + "\u{0}" + id)).inserted else { return }
        if try confirm() {
            throw StoreError.invalidData(
                "the id \(JSONText.compact(.string(id))) is already taken by an earlier \(entity.name) of this file (an id names one record)"
            )
        }
    }

    /// FNV-1a over the UTF-8 bytes: stable, and good enough to keep confirmations rare.
    private static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
