import ArgumentParser
import Foundation
import IntentEngine
import IntentModel
import IntentRuntime

/// The end of a command that starts a conversation: questions asked inline on a terminal, then the
/// answer printed as text or JSON.
enum Conversing {
    static func finish(_ first: Answer, in engine: IntentEngine, _ request: EngineRequest, json: Bool) throws {
        if try answer(first, in: engine, request, json: json).storeFailure { throw ExitCode(1) }
    }

    /// Asks `first`'s questions inline when standard input is a terminal (and `inline` allows it),
    /// prints the last answer, and returns it.
    @discardableResult
    static func answer(
        _ first: Answer, in engine: IntentEngine, _ request: EngineRequest, json: Bool, inline: Bool = true
    ) throws -> Answer {
        var answer = first
        let interactive = inline && !json && isatty(STDIN_FILENO) != 0
        while interactive, answer.isQuestion {
            print(answer.text)
            print("› ", terminator: "")
            fflush(nil)
            guard let line = readLine() else {
                answer = engine.cancel(request) ?? answer
                break
            }
            answer = engine.respond(to: line, request)
        }
        if json {
            try JSONEnvelope.write(answer.json)
        } else {
            print(answer.text)
        }
        return answer
    }
}
