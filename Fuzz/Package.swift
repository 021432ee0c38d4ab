// swift-tools-version: 6.1
// Coverage-guided fuzzers (libFuzzer) over the intents package: `make fuzz` from the root builds
// every target with -sanitize=fuzzer and runs each for FUZZ_SECONDS. Not part of CI.
import PackageDescription

/// One fuzzer per name: `Sources/Fuzz<Name>/main.swift` defines `LLVMFuzzerTestOneInput`.
/// Adding a fuzzer is one line here; the Makefile runs every target this list declares.
let fuzzers: [(name: String, dependencies: [String])] = [
    (
        "FuzzPhrase",
        ["IntentModel", "IntentLanguage", "IntentProject", "PhraseMatching", "ModelStore", "IntentRuntime"]
    ),
    ("FuzzDefinitions", ["IntentModel", "IntentLanguage", "YAML"]),
    ("FuzzOpen", ["IntentModel", "IntentLanguage", "IntentRuntime"]),
    ("FuzzShare", ["IntentModel", "IntentLanguage", "IntentRuntime"]),
    ("FuzzRequestBody", ["IntentModel", "IntentRequests"]),
    ("FuzzImport", ["IntentModel", "IntentLanguage", "ModelStore"]),
    ("FuzzJSONOutput", ["IntentModel", "IntentLanguage", "ModelStore", "IntentRuntime"]),
    ("FuzzConsoleRequests", ["IntentModel", "IntentRequests"]),
    ("FuzzStoreURL", ["ModelStore"]),
    ("FuzzSentenceModel", ["PhraseMatching"]),
]

let package = Package(
    name: "intents-fuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "intents", path: "..")],
    targets: fuzzers.map { fuzzer in
        .executableTarget(
            name: fuzzer.name,
            dependencies: fuzzer.dependencies.map { .product(name: $0, package: "intents") },
            // libFuzzer brings `main`; the target's main.swift declares only functions.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    }
)
