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
        .library(name: "IntentRendering", targets: ["IntentRendering"]),
        .library(name: "IntentEngine", targets: ["IntentEngine"]),
        .library(name: "IntentServer", targets: ["IntentServer"]),
        .library(name: "IntentRequests", targets: ["IntentRequests"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // The HTTP server (`intents serve`); its traits pull in swift-configuration and full
        // Foundation for form decoding, neither of which the server uses.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        // Hummingbird's own: the HTTP request and response types its routes take.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
        // Hummingbird's own: the thread pool the engine's blocking calls run on.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        // Hummingbird's own: a started server stops gracefully (tests, benchmarks).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        // SHA-256 of the users' bearer tokens (the only hash the project needs).
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
        // /metrics in the Prometheus text format (a registry per server, no global bootstrap).
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        // Hummingbird's own: the HTTP parts a connection's guard reads (limits per connection).
        .package(url: "https://github.com/apple/swift-nio-extras.git", exact: "1.35.2"),
        // The second store backend (`--store postgres://…`), beside SQLite.
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        // `swift package generate-documentation` over the DocC catalogs (Sources/<Target>/<Target>.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .target(name: "YAML", dependencies: ["CYAML"]),
        .target(name: "IntentModel", dependencies: ["YAML"]),
        // YAML for its source marks: the compiled graph cache writes where each node was declared.
        .target(
            name: "PhraseMatching", dependencies: ["YAML", "IntentModel"],
            // Optimised in debug builds too: training the learned stage (its loops over every sentence
            // and weight) cost 19.5 s of CPU per fresh cache unoptimised, 1.2 s optimised, and the
            // tests train it in hundreds of fresh stores. The same model to the byte (BENCHMARKS.md, lead8).
            // An unsafe flag: a package that depends on this one by version rather than by path or
            // branch is refused by SwiftPM; the flag goes when SwiftPM has a setting for it.
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(name: "IntentLanguage", dependencies: ["YAML", "IntentModel", "PhraseMatching"]),
        .target(
            name: "ModelStore",
            dependencies: [
                "IntentModel", .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's own functions, to bind a statement's arguments by type (SQLExecutor.swift).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        .target(name: "IntentProject", dependencies: ["IntentModel", "IntentLanguage", "PhraseMatching"]),
        .target(
            name: "IntentRuntime",
            dependencies: ["YAML", "IntentModel", "PhraseMatching", "ModelStore"]),
        // Text for people, in one place: diagnostics, the graph, descriptions, search hits, widgets.
        .target(name: "IntentRendering", dependencies: ["YAML", "IntentModel", "IntentRuntime", "ModelStore"]),
        // The front door: loading, the store, conversations kept in it; the CLI and REPL use only this.
        .target(
            name: "IntentEngine",
            dependencies: ["IntentModel", "IntentProject", "IntentRuntime", "ModelStore", "PhraseMatching"]),
        // What a request to the server may hold, checked (no HTTP, no engine: the fuzzer runs it alone).
        .target(name: "IntentRequests", dependencies: ["IntentModel"]),
        // The HTTP API over the front door: routes, users and their tokens, limits, metrics. Nothing
        // in it knows the store's kind: it asks an `EngineProvider` for a user's engine.
        .target(
            name: "IntentServer",
            dependencies: [
                "IntentEngine", "IntentModel", "IntentRuntime", "IntentRequests",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ]),
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
                "IntentRendering",
                "IntentEngine",
                "IntentServer",
                "IntentRequests",
                "YAML",
                "CEditLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "intents-bench",
            dependencies: [
                "IntentModel", "IntentLanguage", "IntentProject", "PhraseMatching", "YAML", "ModelStore",
                "IntentRuntime", "IntentRendering", "IntentEngine",
            ],
            path: "Benchmarks/intents-bench"
        ),
        .target(
            name: "TestSupport", dependencies: ["IntentModel", "IntentLanguage"], path: "Tests/TestSupport",
            exclude: ["Fixtures"]),
        .testTarget(name: "YAMLTests", dependencies: ["YAML"]),
        .testTarget(name: "IntentModelTests", dependencies: ["IntentModel"]),
        .testTarget(
            name: "PhraseMatchingTests",
            dependencies: ["PhraseMatching", "IntentModel", "IntentLanguage", "YAML", "TestSupport"]),
        .testTarget(
            name: "IntentLanguageTests",
            dependencies: ["IntentLanguage", "IntentModel", "IntentRendering", "PhraseMatching", "TestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "ModelStoreTests",
            dependencies: [
                "ModelStore", "IntentModel", "IntentLanguage", "PhraseMatching", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "IntentProjectTests",
            dependencies: ["IntentProject", "IntentModel", "IntentLanguage", "PhraseMatching", "TestSupport"]),
        .testTarget(
            name: "IntentRuntimeTests",
            dependencies: [
                "IntentRuntime", "IntentRendering", "ModelStore", "IntentModel", "IntentLanguage", "PhraseMatching",
                "TestSupport",
            ]),
        .testTarget(
            name: "IntentEngineTests",
            dependencies: ["IntentEngine", "IntentRuntime", "IntentModel", "TestSupport"]),
        .testTarget(
            name: "IntentServerTests",
            dependencies: [
                "IntentServer", "IntentRequests", "IntentEngine", "IntentModel", "ModelStore", "TestSupport",
            ]),
        // IntentsCLI: the `intents` binary the tests run, and its commands (@testable).
        .testTarget(
            name: "IntentsCLITests",
            dependencies: [
                "IntentsCLI", "ModelStore", "IntentModel", "IntentLanguage", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["Golden", "Fixtures"]),
    ]
)
