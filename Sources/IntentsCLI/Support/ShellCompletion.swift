import ArgumentParser
import Foundation
import IntentLanguage
import IntentModel
import YAML

/// The shell's Tab on arguments that name something in the definitions: intents, apps, entities,
/// enums, widgets, controls, a configurable widget's `--set name=value` and a shortcut file's
/// `--input name=value`. The script
/// `intents --generate-completion-script` writes calls `intents ---completion …`, which runs these
/// with the words typed so far. The definitions are read as written (no compilation, so a project
/// with errors still completes): the `--intents` typed on the line, else `./Intents`.
enum ShellCompletion {
    enum Kind: CaseIterable, Sendable {
        case intents, apps, entities, enums, widgets, controls
    }

    /// Names of these kinds that start with what is typed.
    static func names(_ kinds: [Kind]) -> CompletionKind {
        .custom { words, _, prefix in
            Declarations(words: words).names(kinds).filter { $0.hasPrefix(prefix) }
        }
    }

    /// `--set name=value` of the widget named on the line: its parameters' names, then an enum
    /// parameter's cases or a boolean's true and false.
    static let widgetSettings = CompletionKind.custom { words, _, prefix in
        let declarations = Declarations(words: words)
        guard let widget = words.lazy.compactMap({ declarations.widgets[$0] }).first else { return [] }
        return values(of: widget.parameters, typed: prefix, declarations: { declarations })
    }

    /// `run FILE --input name=value`: the shortcut file's inputs, then an enum input's cases (the
    /// enum named bare or as `App.Enum`) or a boolean's true and false.
    static let shortcutInputs = CompletionKind.custom { words, _, prefix in
        guard let file = words.first(where: { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }),
            let data = FileManager.default.contents(atPath: file), data.count <= YAMLParser.maximumBytes,
            let root = try? YAMLParser.parse(bytes: [UInt8](data), file: file).root
        else { return [] }
        let inputs = (root["input"]?.mapping ?? []).compactMap { input in
            input.key.string.map { ($0, input.value["type"]?.string ?? input.value.string ?? "") }
        }
        return values(of: inputs, typed: prefix, declarations: { Declarations(words: words) })
    }

    /// `name=` for each of `parameters`, or, once a name and `=` are typed, its values.
    private static func values(
        of parameters: [(name: String, type: String)], typed prefix: String, declarations: () -> Declarations
    ) -> [String] {
        guard let equals = prefix.firstIndex(of: "=") else {
            return parameters.map { $0.name + "=" }.filter { $0.hasPrefix(prefix) }
        }
        let name = String(prefix[..<equals])
        guard let parameter = parameters.first(where: { $0.name == name }) else { return [] }
        let type = parameter.type.split(separator: ".").last.map(String.init) ?? parameter.type
        let values = type == "boolean" ? ["true", "false"] : declarations().cases[type] ?? []
        return values.map { name + "=" + $0 }.filter { $0.hasPrefix(prefix) }
    }

    /// What the definition files declare, read from their YAML.
    struct Declarations {
        struct Widget {
            var parameters: [(name: String, type: String)]
        }

        /// Declared names by kind, each as `Name` and `App.Name`.
        private var declared: [Kind: [(app: String, name: String)]] = [:]
        var widgets: [String: Widget] = [:]
        /// Enum cases by the enum's name.
        var cases: [String: [String]] = [:]

        init(words: [String]) {
            var directory = "Intents"
            for (number, word) in words.enumerated() {
                if word == "--intents", number + 1 < words.count { directory = words[number + 1] }
                if word.hasPrefix("--intents=") { directory = String(word.dropFirst("--intents=".count)) }
            }
            for path in (try? DefinitionLoader.files(in: directory)) ?? [] {
                guard let data = FileManager.default.contents(atPath: path), data.count <= YAMLParser.maximumBytes,
                    let root = try? YAMLParser.parse(bytes: [UInt8](data), file: path).root
                else { continue }
                let app = root["app"]?.string ?? PathText.lastComponent(PathText.deletingLastComponent(path))
                if root["app"]?.string != nil { declared[.apps, default: []].append((app, app)) }
                let sections: [(String, Kind)] = [
                    ("intents", .intents), ("entities", .entities), ("enums", .enums), ("widgets", .widgets),
                    ("controls", .controls),
                ]
                for (key, kind) in sections {
                    for pair in root[key]?.mapping ?? [] {
                        guard let name = pair.key.string else { continue }
                        declared[kind, default: []].append((app, name))
                        if kind == .enums {
                            cases[name] = (pair.value["cases"]?.mapping ?? []).compactMap(\.key.string)
                        }
                        if kind == .widgets {
                            let parameters = (pair.value["parameters"]?.mapping ?? []).compactMap { parameter in
                                parameter.key.string.map {
                                    ($0, parameter.value["type"]?.string ?? parameter.value.string ?? "")
                                }
                            }
                            widgets[name] = Widget(parameters: parameters)
                        }
                    }
                }
            }
        }

        /// The names, bare where one app declares them, also `App.Name` where several do.
        func names(_ kinds: [Kind]) -> [String] {
            var result: [String] = []
            for kind in kinds {
                let found = declared[kind] ?? []
                if kind == .apps {
                    result += found.map(\.name)
                    continue
                }
                var count: [String: Int] = [:]
                for item in found { count[item.name, default: 0] += 1 }
                for item in found {
                    result.append(item.name)
                    if count[item.name, default: 0] > 1 { result.append(item.app + "." + item.name) }
                }
            }
            var seen: Set<String> = []
            return result.filter { seen.insert($0).inserted }
        }
    }
}
