import Foundation
import IntentLanguage
import IntentModel

// Definition files: bytes as one app's YAML file → parse, decode, compile, diagnostics printed
// to text the way `intents check` would. Any input must give a graph or diagnostics, quickly.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDefinitions(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let compilation = IntentCompiler.compile(files: [(path: "fuzz/app.yaml", bytes: bytes)], root: "fuzz")
    for diagnostic in compilation.diagnostics { _ = diagnostic.message.text }
    if let graph = compilation.graph { _ = graph.intents.count }
    return 0
}
