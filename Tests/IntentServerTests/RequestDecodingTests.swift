import Foundation
import IntentRequests
import Testing

/// What the server reads from a request's head, decoded apart from HTTP (the fuzzer
/// `FuzzConsoleRequests` runs the same functions): the bearer token and the query string.
@Suite("Request heads decoded")
struct RequestDecodingTests {
    @Test(
        arguments: [
            ("Bearer it_abc", "it_abc"), ("bearer   it_abc  ", "it_abc"), ("BEARER\tit_abc", "it_abc"),
            ("Bearer", nil), ("Bearer   ", nil), ("Basic it_abc", nil), ("Bearer it_a bc", nil),
            ("Bearer it_\u{85}abc", nil),
        ] as [(String, String?)])
    func theBearerToken(_ header: String, _ token: String?) {
        #expect(BearerToken.parse(header) == token)
    }

    /// Found by FuzzConsoleRequests: a token starting with a combining mark was read from
    /// "Bearer<spaces><mark>…" but not from "Bearer <mark>…" (the mark joined the space into one
    /// character, so no space was found). Read by scalars, both give the same token.
    @Test func aCombiningMarkAfterTheSpaceIsPartOfTheToken() {
        let token = "\u{593}abc"
        let padded = BearerToken.parse("Bearer" + String(repeating: " ", count: 28) + token)
        #expect(padded == token)
        #expect(BearerToken.parse("Bearer " + token) == padded)
    }

    @Test func aQueryReadsBackFromItsOwnEncoding() throws {
        let query = try QueryParameters("q=caf%C3%A9+au+lait&limit=5", allowed: ["q", "limit"])
        #expect(query.values == ["q": "café au lait", "limit": "5"])
        #expect(try QueryParameters(QueryParameters.encode(query.values), allowed: ["q", "limit"]) == query)
    }
}
