import Foundation
import IntentLanguage
import IntentModel
import IntentRendering
import YAML

/// Compiles 1,000 generated intents (10 apps × 100) and compares with libyaml's own parse of the same files.

func compileBenchmark() throws {
    let intentCount = argument("--intents", default: 1000)
    /// `--only compile|yaml|libyaml` runs one measurement, for counting instructions under callgrind.
    let only: String? = CommandLine.arguments.firstIndex(of: "--only").flatMap {
        $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil
    }
    let runs = argument("--runs", default: 15)
    let appsCount = 10
    let perApp = max(1, intentCount / appsCount)

    let root = FileManager.default.temporaryDirectory.appendingPathComponent("intents-bench-\(getpid())").path
    try? FileManager.default.removeItem(atPath: root)
    defer { try? FileManager.default.removeItem(atPath: root) }

    for app in 0..<appsCount {
        var yaml = """
            app: App\(app)
            languages: [en, de]
            rules:
              item_word: "(item|thing|entry)"
            enums:
              Level:
                cases:
                  low: { title: Low, synonyms: [minor, small] }
                  medium: { title: Medium, synonyms: [normal] }
                  high: { title: High, synonyms: [major, big, urgent] }
            entities:
              Record:
                properties:
                  name: string
                  level: { type: Level, default: low }
                  count: { type: integer, default: 0 }
                  due: { type: date, optional: true }
                  done: { type: boolean, default: false }
                display: { title: "${name}", subtitle: "${level.title}" }
                matchBy: [name]
                suggested: { where: "!done", sort: [-level, createdAt], limit: 5 }
            intents:

            """
        for index in 0..<perApp {
            yaml += """
                  Action\(index):
                    title: Action \(index)
                    description: Generated intent number \(index).
                    parameters:
                      name: { type: string, prompt: "Which name?", validate: [ { max: 200, message: "Too long." } ] }
                      level: { type: Level, default: medium }
                      amount: { type: integer, default: 1, validate: [ { min: 1 }, { max: 99 } ] }
                      due: { type: date, optional: true }
                    summary:
                      - when: "due != nil && level == high"
                        text: "Do ${name} \(index) by ${due}"
                      - text: "Do ${name} \(index)"
                    phrases:
                      en:
                        - "(verb\(app)x\(index)|act\(app)x\(index)) [a|the] [{level}] <item_word> {name} [in {app}]"
                        - "please verb\(app)x\(index) {name} {amount} times"
                        - "verb\(app)x\(index) {name} (by|before) {due}"
                      de:
                        - "mach\(app)x\(index) [das] {name}"
                    perform:
                      - find: Record
                        where: "!done && level == high && count < 10"
                        sort: -createdAt
                        limit: 3
                        as: open
                      - create: Record
                        set: { name: "${name}", level: "${level}", count: "${amount + count(open)}", due: "${due}" }
                        as: record
                    result:
                      value: "${record}"
                      dialog: "${record.name} is ${record.level.title}${exists(open) ? ', with ' + join(open, ', ') : ''}."
                    donate: [name, level]
                    examples:
                      - say: "verb\(app)x\(index) the item milk"
                        expect: { name: milk }

                """
        }
        let folder = root + "/app\(app)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try yaml.write(toFile: folder + "/app.yaml", atomically: true, encoding: .utf8)
    }

    let files = try DefinitionLoader.files(in: root)
    let contents = files.map { (path: $0, bytes: [UInt8](FileManager.default.contents(atPath: $0)!)) }
    let totalBytes = contents.reduce(0) { $0 + $1.bytes.count }

    func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }
    func measure(_ body: () throws -> Void) rethrows -> [Double] {
        var samples: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return samples
    }

    // Warm up, and make sure the generated definitions are clean.
    let check = try IntentCompiler.compile(directory: root)
    guard check.graph != nil, check.diagnostics.isEmpty else {
        FileHandle.standardError.write(
            Data(DiagnosticPrinter(sources: check.sources).render(Array(check.diagnostics.prefix(5))).utf8))
        FileHandle.standardError.write(Data("generated definitions did not compile cleanly\n".utf8))
        return
    }

    if let only {
        for _ in 0..<runs {
            switch only {
            case "compile": _ = try IntentCompiler.compile(directory: root)
            case "yaml": for file in contents { _ = try YAMLParser.parse(bytes: file.bytes, file: file.path) }
            default: for file in contents { _ = YAMLParser.libyamlOnly(bytes: file.bytes) }
            }
        }
        return
    }

    // No runs: the set-up alone, the baseline subtracted from a counted run's instructions.
    guard runs > 0 else {
        print("intents: \(check.graph!.intents.count) in \(files.count) files, \(totalBytes / 1024) KiB, no runs")
        return
    }
    let compileTimes = try measure { _ = try IntentCompiler.compile(directory: root) }
    let parseTimes = try measure {
        for file in contents { _ = try YAMLParser.parse(bytes: file.bytes, file: file.path) }
    }
    let libyamlTimes = measure {
        for file in contents { _ = YAMLParser.libyamlOnly(bytes: file.bytes) }
    }
    let compileMedian = median(compileTimes), parseMedian = median(parseTimes), libyamlMedian = median(libyamlTimes)
    print("intents: \(check.graph!.intents.count) in \(files.count) files, \(totalBytes / 1024) KiB, \(runs) runs")
    print(
        String(
            format: "compile (read + libyaml + decode + check + graph): median %.1f ms, min %.1f ms",
            compileMedian * 1000, compileTimes.min()! * 1000))
    print(
        String(
            format: "YAML layer alone (libyaml + Node trees):           median %.1f ms, min %.1f ms",
            parseMedian * 1000, parseTimes.min()! * 1000))
    print(
        String(
            format: "libyaml alone (yaml_parser_load, no Swift nodes):  median %.1f ms, min %.1f ms",
            libyamlMedian * 1000, libyamlTimes.min()! * 1000))
    print(
        String(
            format: "ratio compile / YAML layer: %.2f×, compile / libyaml: %.2f×", compileMedian / parseMedian,
            compileMedian / libyamlMedian))
}
