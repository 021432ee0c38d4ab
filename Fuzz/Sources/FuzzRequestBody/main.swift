import Foundation
import IntentModel
import IntentRequests

// `POST /v1/say`'s body as the server checks it, from any bytes: a `SayRequest` or an `APIError`
// with a 4xx status and a message — never a trap, a hang or a 5xx. A body accepted is accepted again,
// to the same request, when its fields are written out as JSON once more (the checks read what the
// client sent, nothing else).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestBody(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do throws(APIError) {
        let request = try SayRequest(bytes: bytes)
        var object: [String: JSONValue] = ["text": .string(request.text), "dryRun": .bool(request.dryRun)]
        if let conversation = request.conversation { object["conversation"] = .string(conversation) }
        if let language = request.language { object["lang"] = .string(language) }
        if !request.context.isEmpty { object["context"] = .object(request.context.mapValues(JSONValue.string)) }
        let again: SayRequest
        do {
            again = try SayRequest(bytes: Array(JSONText.compact(.object(object)).utf8))
        } catch {
            fatalError("FuzzRequestBody: accepted, then refused once written again: \(error.message)")
        }
        guard again == request else { fatalError("FuzzRequestBody: \(request) read back as \(again)") }
        guard request.text.utf8.count <= Limits.default.maxPhraseBytes else {
            fatalError("FuzzRequestBody: a phrase of \(request.text.utf8.count) bytes passed")
        }
    } catch {
        guard (400..<500).contains(error.statusCode), !error.message.isEmpty else {
            fatalError("FuzzRequestBody: refused with \(error.statusCode) '\(error.message)'")
        }
    }
    return 0
}
