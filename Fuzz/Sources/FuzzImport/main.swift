import Foundation
import IntentLanguage
import IntentModel
import ModelStore

// What `intents store import` reads from outside: an export's bytes, not necessarily UTF-8, into a
// store over the bundled definitions. Properties: the import never traps; a refusal changes
// nothing; what it accepts holds no control character, and exports to text that imports back and
// exports again to the same bytes (the round trip `store export` / `store import` promises).
// Each input runs in transactions that are rolled back, so the store stays empty.

/// The package's root: $INTENTS_ROOT, else three folders above this file's folder.
private let root: String = {
    if let root = ProcessInfo.processInfo.environment["INTENTS_ROOT"] { return root }
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
}()

private let store: Store = {
    do {
        guard let graph = try IntentCompiler.compile(directory: root + "/Intents").graph else {
            fatalError("FuzzImport: the bundled definitions under \(root)/Intents do not compile")
        }
        let path = NSTemporaryDirectory() + "fuzz-import-\(getpid()).sqlite"
        try? FileManager.default.removeItem(atPath: path)
        let clock = Clock.fixed(Date(timeIntervalSince1970: 1_795_341_600), timeZone: TimeZone(identifier: "UTC")!)
        return try Store(path: path, graph: graph, clock: clock)
    } catch {
        fatalError("FuzzImport: setup failed: \(error)")
    }
}()

private struct RolledBack: Error { let export: String? }

private let journal = QualifiedName(app: "intents", name: "import")

/// Imports `bytes` and exports what the store then holds, in a transaction rolled back; nil when
/// the import refused the bytes.
private func importThenExport(_ bytes: [UInt8]) -> String? {
    do {
        _ = try store.write { transaction -> Int in
            var stream = JSONRecordStream(bytes: bytes, piece: 4096)
            _ = try transaction.importRecords(from: &stream, journalAs: journal, parameters: [:])
            var text = ""
            try transaction.export(
                to: { text += $0 },
                unreadable: { fatalError("FuzzImport: an imported value cannot be read back: \($0)") })
            throw RolledBack(export: text)
        }
    } catch let rolledBack as RolledBack {
        return rolledBack.export
    } catch {
        return nil
    }
    return nil
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = importThenExport(bytes) else { return 0 }
    // Property: accepted text holds no control character but tab and line feed.
    guard let parsed = try? JSONSerialization.jsonObject(with: Data(first.utf8)) else {
        fatalError("FuzzImport: the export does not parse:\n\(first)")
    }
    func strings(_ value: Any) -> [String] {
        switch value {
        case let string as String: [string]
        case let array as [Any]: array.flatMap(strings)
        case let object as [String: Any]: object.values.flatMap(strings) + Array(object.keys)
        default: []
        }
    }
    for text in strings(parsed) where text.unicodeScalars.contains(where: ControlCharacters.isForbidden) {
        fatalError("FuzzImport: an imported record holds a control character: \(text.debugDescription)")
    }
    // Property: the export imports back and exports to the same bytes.
    guard let second = importThenExport(Array(first.utf8)) else {
        fatalError("FuzzImport: the export of an accepted import is refused:\n\(first)")
    }
    guard second == first else {
        fatalError("FuzzImport: export, import, export differs:\n\(first)\n---\n\(second)")
    }
    return 0
}
