// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "intents",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "intents", targets: ["IntentsCLI"]),
        .library(name: "IntentLanguage", targets: ["IntentLanguage"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .target(name: "YAML", dependencies: ["CYAML"]),
        .target(name: "IntentLanguage", dependencies: ["YAML"]),
        .target(name: "PhraseMatching", dependencies: ["IntentLanguage"]),
        .executableTarget(
            name: "IntentsCLI",
            dependencies: [
                "IntentLanguage",
                "PhraseMatching",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "intents-bench",
            dependencies: ["IntentLanguage", "PhraseMatching", "YAML"],
            path: "Benchmarks/intents-bench"
        ),
        .testTarget(name: "YAMLTests", dependencies: ["YAML"]),
        .testTarget(name: "PhraseMatchingTests", dependencies: ["PhraseMatching", "IntentLanguage"]),
        .testTarget(
            name: "IntentLanguageTests",
            dependencies: ["IntentLanguage", "YAML"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "IntentsCLITests", dependencies: ["IntentsCLI"], exclude: ["Golden"]),
    ]
)
