import Foundation
import IntentLanguage
import IntentModel
import IntentProject
import IntentRuntime
import ModelStore
import PhraseMatching

// The phrase path, as `intents say --dry-run` takes it: normalize, match, resolve against the
// bundled definitions and a store holding a few records, dialog; nothing is executed. Each line
// of the input is one turn, so follow-up answers to questions are fuzzed too.

/// The package's root: $INTENTS_ROOT, else three folders above this file's folder.
private let root: String = {
    if let root = ProcessInfo.processInfo.environment["INTENTS_ROOT"] { return root }
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
}()

private let clock = Clock.fixed(Date(timeIntervalSince1970: 1_795_341_600), timeZone: TimeZone(identifier: "UTC")!)

/// One session for the whole run: building it compiles the definitions and fills the store.
nonisolated(unsafe) private let session: Session = {
    do {
        guard let graph = try Project.load(intents: root + "/Intents", clock: clock).graph else {
            fatalError("FuzzPhrase: the bundled definitions under \(root)/Intents do not compile")
        }
        let directory = NSTemporaryDirectory() + "intents-fuzz-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = try Store(path: directory + "/store.sqlite", graph: graph, clock: clock)
        let session = try Session(graph: graph, store: store)
        // Records for entity names to resolve against (and to be ambiguous about).
        let filler = Conversation(session: session, options: .init(confirmAll: true))
        for phrase in [
            "add buy milk to my tasks", "add do the laundry to my tasks", "create an urgent task buy milk",
            "track rust as bullish", "track swift concurrency", "add a note remember the keys",
            "save the website swift.org",
        ] {
            _ = filler.respond(to: phrase)
        }
        try session.reloadNames()
        return session
    } catch {
        fatalError("FuzzPhrase: setup failed: \(error)")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPhrase(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // What `say` accepts: UTF-8 text of at most 2,000 bytes (it refuses anything else first).
    guard size <= 2_000, let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    else { return -1 }
    let conversation = Conversation(session: session, options: .init(dryRun: true))
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(4) {
        let answer = conversation.respond(to: String(line))
        _ = answer.text
        _ = answer.json
    }
    return 0
}
