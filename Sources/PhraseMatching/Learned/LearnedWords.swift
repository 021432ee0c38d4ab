/// The word pools training draws from (written here, no corpus): values for slots, and the
/// everyday words that noise sentences and inserted words are made of.
enum LearnedWords {
    /// Free-text slot values: names and topics a person might give.
    static let freeText = [
        "garden", "letter", "project", "river", "budget", "piano", "summer", "report", "bicycle", "ticket",
        "harbor", "lantern", "marble", "orchard", "pepper", "canvas", "saddle", "violet", "copper", "meadow",
        "walnut", "puzzle", "anchor", "velvet", "pillow", "compass", "falcon", "ribbon", "cedar", "quantum",
        "electric", "cars", "taxes", "laundry", "groceries", "launch", "design", "review", "notes", "plan",
    ]
    /// `freeText` as a set, for asking whether a word is one.
    static let freeTextSet = Set(freeText)
    static let numbers = ["2", "3", "5", "7", "10", "12", "25", "40", "two", "three", "five", "ten", "twenty"]
    static let dates = [
        "tomorrow", "today", "friday", "next monday", "tomorrow at 9", "tonight", "on march 3rd", "in 2 hours",
        "this evening", "at noon",
    ]
    static let germanDates = ["morgen", "heute", "freitag", "nächsten montag", "morgen um 9", "übermorgen"]
    static let durations = ["five minutes", "10 minutes", "an hour", "25 minutes", "2 hours", "half an hour"]
    static let germanDurations = ["fünf minuten", "eine stunde", "10 minuten", "zwei stunden"]
    /// Everyday words: what noise is made of and what a perturbed sentence has inserted.
    static let noise = [
        "what", "is", "the", "how", "do", "i", "get", "to", "make", "a", "about", "best", "time", "go", "where",
        "when", "why", "who", "which", "there", "here", "it", "that", "this", "they", "we", "he", "she", "was",
        "were", "be", "been", "have", "has", "had", "does", "did", "not", "no", "yes", "maybe", "some", "any",
        "many", "much", "more", "most", "very", "really", "quite", "too", "also", "again", "still", "yet", "ever",
        "never", "always", "often", "people", "thing", "things", "way", "day", "week", "year", "world", "life",
        "man", "woman", "child", "friend", "house", "home", "car", "road", "city", "country", "water", "food",
        "money", "book", "word", "story", "game", "team", "school", "work", "job", "price", "color", "dog", "cat",
        "tree", "sky", "sun", "rain", "snow", "wind", "cold", "hot", "big", "small", "old", "young", "good", "bad",
        "happy", "sad", "fast", "slow", "cheap", "expensive", "funny", "strange", "green", "red", "blue", "black",
        "white", "tall", "long", "short", "high", "low", "tell", "say", "ask", "know", "think", "feel", "want",
        "like", "love", "hate", "need", "buy", "sell", "pay", "eat", "drink", "sleep", "walk", "run", "drive",
        "fly", "swim", "sing", "dance", "read", "write", "watch", "listen", "hear", "see", "look", "find", "give",
        "take", "bring", "send", "call", "meet", "wait", "stay", "leave", "come", "visit", "travel", "learn",
        "teach", "cook", "clean", "wash", "fix", "build", "paint", "grow", "plant", "count", "explain",
        "wie", "was", "ist", "der", "die", "das", "ein", "und", "nicht", "wo", "wann", "warum", "heute",
    ]
    /// Closed-class words (articles, pronouns, prepositions, auxiliaries): they say little about which
    /// intent is meant, however rare they are in the phrases, so they weigh less.
    static let functionWords: Set<String> = [
        "a", "an", "the", "my", "me", "i", "you", "your", "it", "its", "this", "that", "these", "those", "is", "are",
        "was", "were", "be", "am", "do", "does", "did", "to", "of", "in", "on", "at", "for", "with", "about", "from",
        "by", "and", "or", "what", "which", "who", "how", "some", "any", "all", "up", "out", "as",
        "der", "die", "das", "ein", "eine", "einen", "mir", "mich", "meine", "mein", "ist", "zu", "auf", "fur", "für",
        "mit", "und", "oder", "was", "wie", "an", "im", "in",
    ]
    /// Words that turn a request into its opposite ("stop showing my fortune …" is no "show my
    /// fortune …"): said outside the values by a request (not a question) whose intent's wording has
    /// none of them, the guess may be the opposite request. Not "not": a question says it of what it
    /// asks about ("how many tasks have i not finished"); a request that starts so says not to.
    static let reversing: Set<String> = [
        "stop", "stopping", "cancel", "quit", "end", "hide", "remove", "delete", "disable", "off", "undo", "stopp",
        "stoppe", "beende", "beenden", "losche", "entferne",
    ]
    /// Words a question starts with, besides question words ("is my fortune tracking off").
    static let questionStarts: Set<String> = [
        "is", "are", "am", "was", "were", "do", "does", "did", "has", "have", "ist", "sind", "hast", "habe",
    ]
    /// What may be put back into a sentence that left it out: articles, possessives, prepositions.
    static let droppable: Set<String> = [
        "a", "an", "the", "my", "your", "to", "of", "in", "on", "at", "for", "with", "about", "from", "by",
        "der", "die", "das", "ein", "eine", "einen", "meine", "mein", "zu", "auf", "fur", "für", "mit", "im",
    ]
    /// Everyday verbs and nouns that mean too many things for WordNet to say which word of the
    /// definitions they stand for ("have" is "hold", "get" is "buy"): never linked, either way.
    static let lightWords: Set<String> = [
        "be", "have", "has", "had", "having", "do", "does", "did", "done", "doing", "get", "gets", "got", "make",
        "made", "take", "took", "taken", "give", "gave", "given", "go", "goes", "went", "gone", "let", "put", "set",
        "want", "need", "come", "came", "see", "saw", "seen", "look", "know", "think", "like", "use", "used", "try",
        "say", "said", "tell", "told", "mean", "keep", "kept", "hold", "bring", "run", "work", "thing", "things",
        "way", "time", "day", "lot", "bit", "kind", "sort", "one", "new", "good", "well", "right", "now", "then",
        "here", "there", "also", "back", "just", "still", "even", "really", "much", "many", "more", "most", "own",
        "please", "thanks", "thank", "okay", "sure", "yes", "not", "all", "any", "every", "each", "some",
    ]
}
