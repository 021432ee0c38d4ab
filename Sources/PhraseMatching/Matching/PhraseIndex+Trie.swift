import IntentModel

extension PhraseIndex {
    /// The trie, flat: a handful of arrays for all its nodes, not a dictionary per node. Node `n`'s
    /// word edges are `wordKeys[wordStart(n)..<wordStart(n + 1)]` (sorted, so that a node with many
    /// is searched by halves), its children beside them; slots, apps, entries and the optional
    /// words likewise. The compiled cache holds these arrays as they are and reads each in one go
    /// (`PhraseIndex+Cache.swift`): a cold start neither hashes a word nor allocates per node.
    final class Trie: @unchecked Sendable {
        /// Where each node's edges of each kind start: `starts[kinds * n + kind]`, one row more than nodes.
        let starts: [Int32]
        let wordKeys: [String]
        let wordChildren: [Int32]
        let slots: [SlotEdge]
        let appKeys: [String]
        let appChildren: [Int32]
        let entries: [Int32]
        let optionalKeys: [String]
        let optionalChildren: [Int32]

        static let kinds = 5
        static let wordKind = 0, slotKind = 1, appKind = 2, entryKind = 3, optionalKind = 4
        /// Up to this many word edges a node is searched in order; past it, by halves.
        static let linearSearch = 6

        var count: Int { starts.count / Self.kinds - 1 }

        init(
            starts: [Int32], wordKeys: [String], wordChildren: [Int32], slots: [SlotEdge], appKeys: [String],
            appChildren: [Int32], entries: [Int32], optionalKeys: [String], optionalChildren: [Int32]
        ) {
            self.starts = starts
            self.wordKeys = wordKeys
            self.wordChildren = wordChildren
            self.slots = slots
            self.appKeys = appKeys
            self.appChildren = appChildren
            self.entries = entries
            self.optionalKeys = optionalKeys
            self.optionalChildren = optionalChildren
        }

        /// The trie the builder's nodes make.
        convenience init(_ nodes: [BuildNode]) {
            var starts: [Int32] = []
            starts.reserveCapacity((nodes.count + 1) * Self.kinds)
            var wordKeys: [String] = [], wordChildren: [Int32] = [], slots: [SlotEdge] = []
            var appKeys: [String] = [], appChildren: [Int32] = [], entries: [Int32] = []
            var optionalKeys: [String] = [], optionalChildren: [Int32] = []
            for node in nodes {
                starts += [
                    Int32(wordKeys.count), Int32(slots.count), Int32(appKeys.count), Int32(entries.count),
                    Int32(optionalKeys.count),
                ]
                for (word, child) in node.words.sorted(by: { $0.key < $1.key }) {
                    wordKeys.append(word)
                    wordChildren.append(child)
                }
                slots += node.slots
                for (app, child) in node.apps.sorted(by: { $0.key < $1.key }) {
                    appKeys.append(app)
                    appChildren.append(child)
                }
                entries += node.entries
                for (word, child) in node.optionalWords {
                    optionalKeys.append(word)
                    optionalChildren.append(child)
                }
            }
            starts += [
                Int32(wordKeys.count), Int32(slots.count), Int32(appKeys.count), Int32(entries.count),
                Int32(optionalKeys.count),
            ]
            self.init(
                starts: starts, wordKeys: wordKeys, wordChildren: wordChildren, slots: slots, appKeys: appKeys,
                appChildren: appChildren, entries: entries, optionalKeys: optionalKeys,
                optionalChildren: optionalChildren)
        }

        /// Whether the arrays make a trie the matcher can walk without a trap: every range in order
        /// and inside its array, every child a node, every entry number below `entryCount`, every
        /// node's words in order where they are searched by halves. (Checked once when read from a
        /// cache; a damaged cache is rebuilt.)
        func isWhole(entryCount: Int) -> Bool {
            let kinds = Self.kinds
            guard starts.count >= 2 * kinds, starts.count % kinds == 0 else { return false }
            let nodeCount = count
            let ends = [wordKeys.count, slots.count, appKeys.count, entries.count, optionalKeys.count]
            guard wordChildren.count == wordKeys.count, appChildren.count == appKeys.count,
                optionalChildren.count == optionalKeys.count
            else { return false }
            for kind in 0..<kinds {
                guard starts[kind] == 0, Int(starts[nodeCount * kinds + kind]) == ends[kind] else { return false }
            }
            for index in kinds..<starts.count where starts[index] < starts[index - kinds] { return false }
            let limit = Int32(nodeCount)
            guard wordChildren.allSatisfy({ $0 >= 0 && $0 < limit }), appChildren.allSatisfy({ $0 >= 0 && $0 < limit }),
                optionalChildren.allSatisfy({ $0 >= 0 && $0 < limit }),
                slots.allSatisfy({ $0.child >= 0 && $0.child < limit }),
                entries.allSatisfy({ $0 >= 0 && Int($0) < entryCount })
            else { return false }
            for node in 0..<nodeCount {
                let start = Int(starts[node * kinds]), end = Int(starts[(node + 1) * kinds])
                guard end - start > Self.linearSearch else { continue }
                for index in (start + 1)..<end where !(wordKeys[index - 1] < wordKeys[index]) { return false }
            }
            return true
        }

        @inline(__always)
        func range(_ node: Int, _ kind: Int) -> Range<Int> {
            Int(starts[node * Self.kinds + kind])..<Int(starts[(node + 1) * Self.kinds + kind])
        }

        /// The child of `node` by the word `word`.
        func child(_ node: Int, word: String) -> Int32? {
            let range = range(node, Self.wordKind)
            if range.count <= Self.linearSearch {
                for index in range where wordKeys[index] == word { return wordChildren[index] }
                return nil
            }
            var low = range.lowerBound, high = range.upperBound
            while low < high {
                let middle = (low + high) / 2
                let key = wordKeys[middle]
                if key == word { return wordChildren[middle] }
                if key < word { low = middle + 1 } else { high = middle }
            }
            return nil
        }

        func child(_ node: Int, app: String) -> Int32? {
            for index in range(node, Self.appKind) where appKeys[index] == app { return appChildren[index] }
            return nil
        }
    }

    /// A node while the index is built (then frozen into the `Trie`).
    struct BuildNode {
        var words: [String: Int32] = [:]
        var slots: [SlotEdge] = []
        var apps: [String: Int32] = [:]
        var entries: [Int32] = []
        var optionalWords: [(word: String, child: Int32)] = []
    }

    /// One node of the trie as the matcher reads it: views into the trie's arrays.
    struct Node {
        let trie: Trie
        let index: Int

        var words: Words { Words(trie: trie, node: index) }
        var slots: ArraySlice<SlotEdge> { trie.slots[trie.range(index, Trie.slotKind)] }
        var apps: Apps { Apps(trie: trie, node: index) }
        var entries: ArraySlice<Int32> { trie.entries[trie.range(index, Trie.entryKind)] }
        var optionalWords: OptionalWords { OptionalWords(trie: trie, range: trie.range(index, Trie.optionalKind)) }
    }

    /// A node's word edges: its child by a word, and its words in order.
    struct Words {
        let trie: Trie
        let node: Int

        subscript(word: String) -> Int32? { trie.child(node, word: word) }
        var isEmpty: Bool { trie.range(node, Trie.wordKind).isEmpty }
        var count: Int { trie.range(node, Trie.wordKind).count }
        /// The node's words, in order.
        var keys: ArraySlice<String> { trie.wordKeys[trie.range(node, Trie.wordKind)] }
    }

    struct Apps {
        let trie: Trie
        let node: Int

        subscript(app: String) -> Int32? { trie.child(node, app: app) }
        var isEmpty: Bool { trie.range(node, Trie.appKind).isEmpty }
    }

    /// A node's children by a word a person may leave out, as (word, child) in the order written.
    struct OptionalWords: Sequence {
        let trie: Trie
        let range: Range<Int>

        var isEmpty: Bool { range.isEmpty }

        func makeIterator() -> Iterator { Iterator(trie: trie, index: range.lowerBound, end: range.upperBound) }

        struct Iterator: IteratorProtocol {
            let trie: Trie
            var index: Int
            let end: Int

            mutating func next() -> (word: String, child: Int32)? {
                guard index < end else { return nil }
                defer { index += 1 }
                return (trie.optionalKeys[index], trie.optionalChildren[index])
            }
        }
    }

    /// The nodes by number.
    struct Nodes {
        let trie: Trie

        subscript(index: Int) -> Node { Node(trie: trie, index: index) }
        var count: Int { trie.count }
    }
}
