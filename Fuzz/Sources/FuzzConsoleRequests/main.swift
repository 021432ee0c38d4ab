import Foundation
import IntentModel
import IntentRequests

// The console's routes as the server reads them, from any bytes, in process: `POST
// /v1/widgets/press` and `POST /v1/tip` bodies, `GET /v1/events` (and every GET's) query string,
// and the `Authorization` header. Each is a value or an `APIError` with a 4xx status and a message
// — never a trap, a hang or a 5xx. What is accepted is accepted again, to the same value, when
// written out once more.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConsoleRequests(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    press(bytes)
    tip(bytes)
    query(text)
    bearer(text)
    return 0
}

func refused(_ error: APIError, _ what: String) {
    guard (400..<500).contains(error.statusCode), !error.message.isEmpty else {
        fatalError("FuzzConsoleRequests: \(what) refused with \(error.statusCode) '\(error.message)'")
    }
}

func press(_ bytes: [UInt8]) {
    do throws(APIError) {
        let request = try PressRequest(bytes: bytes)
        guard (1...1_000).contains(request.button), request.instance.map({ $0 >= 1 }) ?? true,
            !request.widget.isEmpty, request.widget.utf8.count <= PressRequest.maxNameBytes
        else { fatalError("FuzzConsoleRequests: press accepted \(request)") }
        var object: [String: JSONValue] = [
            "widget": .string(request.widget), "button": .integer(request.button), "dryRun": .bool(request.dryRun),
        ]
        if let instance = request.instance { object["instance"] = .integer(Int(instance)) }
        if let conversation = request.conversation { object["conversation"] = .string(conversation) }
        let again: PressRequest
        do {
            again = try PressRequest(bytes: Array(JSONText.compact(.object(object)).utf8))
        } catch {
            fatalError("FuzzConsoleRequests: press accepted, then refused once written again: \(error.message)")
        }
        guard again == request else { fatalError("FuzzConsoleRequests: press \(request) read back as \(again)") }
    } catch {
        refused(error, "press")
    }
}

func tip(_ bytes: [UInt8]) {
    do throws(APIError) {
        let request = try TipRequest(bytes: bytes)
        if let language = request.language {
            guard (2...8).contains(language.utf8.count), language.utf8.allSatisfy({ (97...122).contains($0) }) else {
                fatalError("FuzzConsoleRequests: tip accepted the language '\(language)'")
            }
            let again = try? TipRequest(bytes: Array(#"{"lang":"\#(language)"}"#.utf8))
            guard again == request else { fatalError("FuzzConsoleRequests: tip \(request) read back as \(String(describing: again))") }
        }
    } catch {
        refused(error, "tip")
    }
}

func query(_ text: String) {
    // /v1/events takes no parameter at all: only an empty query passes.
    do throws(APIError) {
        _ = try EventsRequest(query: text)
        guard text.utf8.allSatisfy({ $0 == UInt8(ascii: "&") }) else {
            fatalError("FuzzConsoleRequests: /v1/events accepted the query '\(text)'")
        }
    } catch {
        refused(error, "events query")
    }
    // /v1/search's: the names it knows, each once, read back from their own encoding.
    do throws(APIError) {
        let parameters = try QueryParameters(text, allowed: ["q", "limit"])
        guard Set(parameters.values.keys).isSubset(of: ["q", "limit"]) else {
            fatalError("FuzzConsoleRequests: query accepted \(parameters.values)")
        }
        let again: QueryParameters
        do {
            again = try QueryParameters(QueryParameters.encode(parameters.values), allowed: ["q", "limit"])
        } catch {
            fatalError("FuzzConsoleRequests: query accepted, then refused once written again: \(error.message)")
        }
        guard again == parameters else { fatalError("FuzzConsoleRequests: query \(parameters) read back as \(again)") }
    } catch {
        refused(error, "search query")
    }
}

func bearer(_ header: String) {
    guard let token = BearerToken.parse(header) else { return }
    guard !token.isEmpty, header.utf8.count <= BearerToken.maxHeaderBytes,
        !token.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 })
    else { fatalError("FuzzConsoleRequests: the header '\(header)' gave the token '\(token)'") }
    guard BearerToken.parse("Bearer " + token) == token else {
        fatalError("FuzzConsoleRequests: the token '\(token)' is not read back")
    }
}
