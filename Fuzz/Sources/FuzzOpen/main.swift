import Foundation
import IntentLanguage
import IntentModel
import IntentRuntime

// The deep-link router, as `intents open URL` takes it: any bytes (as a UTF-8 string when they are
// one, else decoded with replacement characters, the way a shell argument could arrive) routed over
// the bundled definitions. Pure: no store, no clock; it must answer a route or a LinkError, never
// trap or hang. Canonical links built from what it routes must route again to the same intent.

/// The package's root: $INTENTS_ROOT, else three folders above this file's folder.
private let root: String = {
    if let root = ProcessInfo.processInfo.environment["INTENTS_ROOT"] { return root }
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
}()

/// One router for the whole run: building it compiles the definitions.
private let router: LinkRouter = {
    do {
        guard let graph = try IntentCompiler.compile(directory: root + "/Intents").graph else {
            fatalError("FuzzOpen: the bundled definitions under \(root)/Intents do not compile")
        }
        return LinkRouter(graph: graph)
    } catch {
        fatalError("FuzzOpen: setup failed: \(error)")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpen(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(validating: bytes, as: UTF8.self) ?? String(decoding: bytes, as: UTF8.self)
    switch router.route(text) {
    case .success(let match):
        // Property: filling the route's own template with the values routed gives a link that
        // routes to the same intent (values percent-encoded by `link`).
        guard let route = router.graph.app(named: match.app)?.links.first(where: { $0.url == match.route }) else {
            fatalError("FuzzOpen: \(match.route) routed but is not a route of \(match.app)")
        }
        var values: [String: String] = [:]
        for (parameter, value) in match.values { values[parameter] = value.description }
        let again = router.route(route.link(values))
        if case .success(let second) = again, second.intent != match.intent {
            fatalError("FuzzOpen: \(route.link(values)) routes to \(second.intent), not \(match.intent)")
        }
    case .failure(let error):
        _ = error.message
    }
    return 0
}
