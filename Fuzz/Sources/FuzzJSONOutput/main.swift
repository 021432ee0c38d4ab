import Foundation
import IntentLanguage
import IntentModel
import IntentRuntime
import ModelStore

// What every `--json` output prints of a store's text: the store may hold anything another
// program wrote (C0, DEL, C1, NUL, lone quotes and backslashes). The text goes into the store
// where `intents` keeps it without checking (the journal's dialog and parameters, an activity's
// title and keywords), is read back as `store history --json` and `activities --json` read it,
// and is written through both JSON writers (`JSONValue`'s and `Encodable`'s, compact and pretty),
// as records, answers and listings are. Properties: every output parses as JSON, holds no raw
// control character (C0, DEL, C1), and gives back the text it was given.

private let root: String = {
    if let root = ProcessInfo.processInfo.environment["INTENTS_ROOT"] { return root }
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
}()

private let clock = Clock.fixed(Date(timeIntervalSince1970: 1_795_341_600), timeZone: TimeZone(identifier: "UTC")!)

private let store: Store = {
    do {
        guard let graph = try IntentCompiler.compile(directory: root + "/Intents").graph else {
            fatalError("FuzzJSONOutput: the bundled definitions under \(root)/Intents do not compile")
        }
        let path = NSTemporaryDirectory() + "fuzz-json-\(getpid()).sqlite"
        try? FileManager.default.removeItem(atPath: path)
        return try Store(path: path, graph: graph, clock: clock)
    } catch {
        fatalError("FuzzJSONOutput: setup failed: \(error)")
    }
}()

private struct RolledBack: Error {}

/// Fails unless `json` parses, holds no raw control character, and (when given) holds `text` as
/// one of its strings.
private func check(_ json: String, holds text: String?, _ what: String) {
    if let raw = json.unicodeScalars.first(where: { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }) {
        fatalError("FuzzJSONOutput: \(what) holds a raw U+\(String(raw.value, radix: 16)):\n\(json)")
    }
    guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed]) else {
        fatalError("FuzzJSONOutput: \(what) does not parse:\n\(json)")
    }
    guard let text else { return }
    func strings(_ value: Any) -> [String] {
        switch value {
        case let string as String: [string]
        case let array as [Any]: array.flatMap(strings)
        case let object as [String: Any]: object.values.flatMap(strings) + Array(object.keys)
        default: []
        }
    }
    guard strings(object).contains(text) else {
        fatalError("FuzzJSONOutput: \(what) lost the text \(text.debugDescription):\n\(json)")
    }
}

private struct ActivityJSON: Encodable {
    var type: String
    var title: String
    var keywords: [String]
    var parameters: [String: JSONValue]
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONOutput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Two readings of the bytes: as UTF-8 (what a file gives), and a scalar a byte (so that
    // 0x80–0x9F are the C1 controls themselves).
    let texts = [
        String(decoding: bytes, as: UTF8.self),
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })),
    ]
    for text in texts {
        // SQLite keeps a NUL, but reading text back stops at it: compare what comes back then.
        let stored = text.unicodeScalars.contains("\u{0}") ? nil : text
        let value = JSONValue.string(text)
        check(JSONText.compact(value), holds: text, "JSONText.compact(JSONValue)")
        check(JSONText.pretty(.object(["text": value, "list": [value]]), depth: 2), holds: text, "JSONText.pretty(depth:)")
        check((try? JSONText.compact(["text": text])) ?? "", holds: text, "JSONText.compact(Encodable)")
        check((try? JSONText.pretty([value])) ?? "", holds: text, "JSONText.pretty(Encodable)")
        let answer = Answer.JSONObject(
            status: .done, app: "Radar", intent: "Radar.CreateRadar", dialog: text, parameters: ["topic": value])
        check((try? JSONText.compact(answer)) ?? "", holds: text, "an answer (say --json)")
        do {
            try store.write { transaction in
                try transaction.journal(
                    intent: QualifiedName(app: "Radar", name: "CreateRadar"), parameters: ["topic": value], dialog: text,
                    donation: nil)
                try transaction.recordActivity(
                    type: "view-radar", intent: QualifiedName(app: "Radar", name: "OpenRadar"), title: text,
                    parameters: ["radar": value], eligible: [.handoff], keywords: [text], link: nil, at: clock.now,
                    expires: clock.now.addingTimeInterval(3600))
                for execution in try transaction.executions(limit: 1) {
                    let parameters = (try? JSONText.decode(JSONValue.self, from: execution.parameters)) ?? .string(execution.parameters)
                    let entry: JSONValue = [
                        "id": .integer(Int(execution.id)), "intent": .string(execution.intent), "parameters": parameters,
                        "dialog": .string(execution.dialog), "at": .string(execution.at), "undone": .bool(execution.undone),
                    ]
                    check(JSONText.pretty(entry, depth: 0), holds: stored, "store history --json")
                }
                for activity in try transaction.activities(at: clock.now) {
                    let entry = ActivityJSON(
                        type: activity.type, title: activity.title, keywords: activity.keywords,
                        parameters: activity.parameters)
                    check((try? JSONText.pretty(entry)) ?? "", holds: stored, "activities --json")
                }
                throw RolledBack()
            }
        } catch is RolledBack {
        } catch {
            fatalError("FuzzJSONOutput: the store refused: \(error)")
        }
    }
    return 0
}
