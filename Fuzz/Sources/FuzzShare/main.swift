import Foundation
import IntentLanguage
import IntentModel
import IntentRuntime

// What `intents share` takes from outside: a file's first bytes and name (its type is detected from
// them), and shared text (checked, then classified as a web address or text), each routed to the
// bundled apps' share routes. The input's first line is the file name, the rest the file's first
// bytes and the shared text. Pure: no store, no files read. It must give a type, a ShareItem or a
// ShareError, and offers or rejections: never trap or hang.

/// The package's root: $INTENTS_ROOT, else three folders above this file's folder.
private let root: String = {
    if let root = ProcessInfo.processInfo.environment["INTENTS_ROOT"] { return root }
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
}()

/// One router for the whole run: building it compiles the definitions.
private let router: ShareRouter = {
    do {
        guard let graph = try IntentCompiler.compile(directory: root + "/Intents").graph else {
            fatalError("FuzzShare: the bundled definitions under \(root)/Intents do not compile")
        }
        return ShareRouter(graph: graph)
    } catch {
        fatalError("FuzzShare: setup failed: \(error)")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzShare(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
    let name = String(decoding: bytes[..<newline], as: UTF8.self)
    let rest = Array(bytes[min(bytes.count, newline + 1)...])

    // Property: a detected type is always a MIME type.
    let type = FileTypeDetector.detect(sample: Array(rest.prefix(FileTypeDetector.sampleSize)), name: name)
    guard type.split(separator: "/").count == 2 else { fatalError("FuzzShare: '\(type)' is not a MIME type") }
    let file = ShareItem(kind: type.hasPrefix("image/") ? .image : .file, text: name, path: name, type: type, size: rest.count)

    var items = [file]
    let text = String(validating: rest, as: UTF8.self) ?? String(decoding: rest, as: UTF8.self)
    do {
        let item = try ShareItem.text(text)
        // Property: accepted text is within the limit and holds no control character but line breaks and tabs.
        guard item.text.utf8.count <= ShareItem.maximumTextBytes,
            !item.text.unicodeScalars.contains(where: { ($0.value < 0x20 && !["\n", "\t", "\r"].contains($0)) || $0.value == 0x7F })
        else { fatalError("FuzzShare: text accepted that should have been refused") }
        items.append(item)
    } catch {
        _ = error.message
    }
    let (offers, rejections) = router.route(items)
    _ = (offers.count, rejections.count)
    return 0
}
