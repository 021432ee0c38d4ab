// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "intents",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "intents", targets: ["IntentsCLI"]),
        .library(name: "IntentLanguage", targets: ["IntentLanguage"]),
        // For the fuzzers in Fuzz/ (a separate package that depends on this one by path).
        .library(name: "YAML", targets: ["YAML"]),
        .library(name: "IntentModel", targets: ["IntentModel"]),
        .library(name: "PhraseMatching", targets: ["PhraseMatching"]),
        .library(name: "ModelStore", targets: ["ModelStore"]),
        .library(name: "IntentProject", targets: ["IntentProject"]),
        .library(name: "IntentRuntime", targets: ["IntentRuntime"]),
        .library(name: "IntentEngine", targets: ["IntentEngine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .target(name: "YAML", dependencies: ["CYAML"]),
        .target(name: "IntentModel", dependencies: ["YAML"]),
        .target(name: "PhraseMatching", dependencies: ["IntentModel"]),
        .target(name: "IntentLanguage", dependencies: ["YAML", "IntentModel", "PhraseMatching"]),
        // PhraseMatching: the store's on-disk name index folds names as the matcher does.
        .target(
            name: "ModelStore",
            dependencies: ["IntentModel", "PhraseMatching", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(name: "IntentProject", dependencies: ["IntentModel", "IntentLanguage", "PhraseMatching"]),
        .target(
            name: "IntentRuntime",
            dependencies: ["YAML", "IntentModel", "IntentProject", "PhraseMatching", "ModelStore"]),
        // The front door: loading, the store, conversations kept in it; the CLI and REPL use only this.
        .target(
            name: "IntentEngine",
            dependencies: ["IntentModel", "IntentProject", "IntentRuntime", "ModelStore", "PhraseMatching"]),
        .systemLibrary(
            name: "CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        .executableTarget(
            name: "IntentsCLI",
            dependencies: [
                "IntentModel",
                "IntentLanguage",
                "IntentProject",
                "PhraseMatching",
                "ModelStore",
                "IntentRuntime",
                "IntentEngine",
                "YAML",
                "CEditLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "intents-bench",
            dependencies: [
                "IntentModel", "IntentLanguage", "IntentProject", "PhraseMatching", "YAML", "ModelStore",
                "IntentRuntime", "IntentEngine",
            ],
            path: "Benchmarks/intents-bench"
        ),
        .target(name: "TestSupport", dependencies: ["IntentLanguage"], path: "Tests/TestSupport"),
        .testTarget(name: "YAMLTests", dependencies: ["YAML"]),
        .testTarget(name: "IntentModelTests", dependencies: ["IntentModel"]),
        .testTarget(name: "PhraseMatchingTests", dependencies: ["PhraseMatching", "IntentLanguage", "TestSupport"]),
        .testTarget(
            name: "IntentLanguageTests",
            dependencies: ["IntentLanguage", "YAML", "TestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "ModelStoreTests",
            dependencies: ["ModelStore", "IntentModel", "IntentLanguage", "PhraseMatching", "TestSupport"]),
        .testTarget(
            name: "IntentRuntimeTests", dependencies: ["IntentRuntime", "ModelStore", "IntentLanguage", "TestSupport"]),
        .testTarget(
            name: "IntentEngineTests",
            dependencies: ["IntentEngine", "IntentRuntime", "IntentModel", "ModelStore", "TestSupport"]),
        .testTarget(
            name: "IntentsCLITests",
            dependencies: ["IntentsCLI", "ModelStore", "IntentModel", "IntentLanguage", "TestSupport"],
            exclude: ["Golden", "Fixtures"]),
    ]
)
