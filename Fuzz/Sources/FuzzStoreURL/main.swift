import Foundation
import ModelStore

// `--store postgres://…` (and `$INTENTS_STORE`) as the store reads it, from any text: a location
// or a `StoreError` with the reason — never a trap. A location accepted reads back the same from
// its own URL, and its description is that URL with the password left out. No message shows the
// password or a control character.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoreURL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    // Most inputs are made to start as a PostgreSQL URL, so that the fuzzer explores past the scheme.
    let url = input.hasPrefix("postgres") || input.hasPrefix("x") ? input : "postgres://" + input
    do {
        let location = try PostgresLocation(url)
        accepted(location, url)
    } catch {
        refused(error, url)
    }
    return 0
}

func accepted(_ location: PostgresLocation, _ url: String) {
    guard (1...65_535).contains(location.port), !location.host.isEmpty, !location.user.isEmpty,
        !location.database.isEmpty, !location.schema.isEmpty
    else { fatalError("FuzzStoreURL: '\(url)' read as \(location)") }
    for text in [location.host, location.user, location.database] + [location.password].compactMap({ $0 }) {
        guard !text.utf8.contains(0) else { fatalError("FuzzStoreURL: a NUL passed in '\(url)'") }
    }
    let again: PostgresLocation
    do {
        again = try PostgresLocation(location.url)
    } catch {
        fatalError("FuzzStoreURL: '\(url)' accepted, its URL '\(location.url)' refused: \(error)")
    }
    guard again == location else { fatalError("FuzzStoreURL: '\(url)' → \(location.url) read back as \(again)") }
    var withoutPassword = location
    withoutPassword.password = nil
    guard (try? PostgresLocation(location.description)) == withoutPassword else {
        fatalError("FuzzStoreURL: the description '\(location.description)' of '\(url)' names another place")
    }
    guard location.description == withoutPassword.url else {
        fatalError("FuzzStoreURL: the description '\(location.description)' is not the URL without its password")
    }
}

func refused(_ error: any Error, _ url: String) {
    guard case .unusable(let shownURL, let reason) = error as? StoreError else {
        fatalError("FuzzStoreURL: '\(url)' refused with \(error)")
    }
    let message = "\(error)"
    if message.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" }) {
        fatalError("FuzzStoreURL: a control character in the message '\(message)'")
    }
    // The reason's own words (the URL's form, the options, the rules) are not taken from the URL.
    var own = reason
    for words in [
        "postgres://user[:password]@host[:port]/database[?schema=name]", "options: schema, sslmode=disable",
        "this version connects without TLS only (sslmode=disable); keep the server on loopback or a private network",
        "1 to 63 lowercase letters, digits and _", "letters, digits, '.', '-'; IPv6 in brackets",
    ] {
        own = own.replacingOccurrences(of: words, with: "\u{0}")
    }
    // The password, however a reader takes it: from the first ':' after '//' to the first or the last '@'.
    guard let scheme = url.range(of: "://"), let colon = url[scheme.upperBound...].firstIndex(of: ":") else { return }
    let after = url[url.index(after: colon)...]
    for at in [after.firstIndex(of: "@"), after.lastIndex(of: "@")].compactMap({ $0 }) {
        let password = String(url[url.index(after: colon)..<at])
        // What the message may show anyway: the URL up to the ':' and from the '@' (apart).
        let elsewhere = String(url[...colon]) + "\u{0}" + String(url[at...])
        if password.unicodeScalars.count >= 6,
            password.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }),
            !elsewhere.contains(password), shownURL.contains(password) || own.contains(password)
        {
            fatalError("FuzzStoreURL: the message '\(message)' shows the password of '\(url)'")
        }
    }
}
