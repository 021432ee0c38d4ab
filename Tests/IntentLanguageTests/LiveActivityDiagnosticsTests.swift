import IntentModel
import Testing

@testable import IntentLanguage

/// `activities:` and the steps that drive them in, diagnostics out.
extension DiagnosticsTests {
    static let activityApp = """
        app: Up
        enums:
          Phase: { cases: { sending: Sending, done: Done } }
        entities:
          File:
            properties: { name: string }
            matchBy: [name]
        activities:
          Upload:
            attributes: { name: string, total: integer }
            state:
              done: { type: integer, default: 0 }
              phase: { type: Phase, default: sending }
            progress: "done * 1.0 / total"

        """

    static let activityCases: [Case] = [
        Case(
            name: "an activity's values are plain, its progress a number, its countdown a date",
            source: activityApp + """
                  Timer:
                    attributes:
                      file: 1️⃣File
                      2️⃣startedAt: date
                      minutes: integer
                    progress: 3️⃣"'half'"
                    countdown: 4️⃣"minutes"
                    staleAfter: 5️⃣10s
                    lockScreen: { title: "${6️⃣minuts}", 7️⃣detial: x }
                intents:
                  Go:
                    phrases: ["go"]
                    perform: [ { start_activity: Timer, with: { minutes: 5 } } ]
                """,
            findings: [
                (
                    "1️⃣",
                    "error: 'file' is File; an activity keeps plain values: string, integer, number, boolean, date, duration, url or an enum"
                ),
                ("2️⃣", "error: 'startedAt' is kept for every activity and cannot be declared"),
                ("3️⃣", "error: progress is a number from 0 to 1, not string"),
                ("4️⃣", "error: a countdown is the date it reaches zero, not integer"),
                ("5️⃣", "error: expected a duration of at least a minute, such as 10m or 1h"),
                ("6️⃣", "error: unknown name 'minuts'; did you mean 'minutes'?"),
                ("7️⃣", "error: unknown key 'detial'; did you mean 'detail'?"),
            ]),
        Case(
            name: "steps: unknown activity, an attribute changed after the start, a missing value, a wrong type",
            source: activityApp + """
                intents:
                  Begin:
                    parameters: { 8️⃣name: string }
                    phrases: ["begin {name}"]
                    perform:
                      - start_activity: 1️⃣Upload
                        with: { name: "${name}" }
                      - start_activity: 2️⃣Uplod
                  Step:
                    parameters: { 9️⃣count: integer }
                    phrases: ["step {count}"]
                    perform:
                      - update_activity: Upload
                        with: { 3️⃣total: 4, done: 4️⃣"${count > 2}", 5️⃣dnoe: 1 }
                  Finish:
                    phrases: ["finish"]
                    perform:
                      - end_activity: Upload
                        with: { phase: done }
                        dismiss: 6️⃣after a while
                  Other:
                    phrases: ["other"]
                    perform:
                      - update_activity: Upload
                        7️⃣dismiss: immediately
                """,
            findings: [
                ("1️⃣", "error: starting Upload needs a value for 'total'"),
                ("2️⃣", "error: unknown activity 'Uplod'; did you mean 'Upload'?"),
                ("3️⃣", "error: 'total' is an attribute of Upload, fixed when it starts; only its state changes"),
                ("4️⃣", "error: 'done' is integer, but the value is boolean"),
                ("5️⃣", "error: Upload has no value 'dnoe'; did you mean 'done'?"),
                (
                    "6️⃣",
                    "error: expected immediately, default, or after and a duration of at most 4h, such as 'after 5m'"
                ),
                ("7️⃣", "error: 'dismiss' does not apply to an 'update_activity' step"),
                // A step with errors uses nothing.
                ("8️⃣", "warning: parameter 'name' is never used by the intent's steps, result or summary"),
                ("9️⃣", "warning: parameter 'count' is never used by the intent's steps, result or summary"),
            ]),
    ]

    @Test(arguments: activityCases)
    func diagnosesLiveActivities(_ c: Case) {
        diagnoses(c)
    }

    @Test func activitiesCompileIntoTheGraph() throws {
        let compilation = IntentCompiler.compile(
            files: [("Intents/up/app.yaml", Array((Self.activityApp + "intents: {}\n").utf8))], root: "Intents")
        let graph = try #require(compilation.graph, "\(compilation.diagnostics)")
        let upload = try #require(graph.liveActivities(named: "Up.Upload").first)
        #expect(upload.attributes.map(\.name) == ["name", "total"])
        #expect(upload.state.map(\.name) == ["done", "phase"])
        #expect(upload.state[1].defaultValue == .enumCase("sending"))
        #expect(upload.progress != nil && upload.countdown == nil)
    }
}
