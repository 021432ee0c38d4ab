import ArgumentParser

/// `name=value` pairs of a request's context, as `--context` and `:context` take them.
enum RequestContext {
    static func parse(_ items: [String]) throws -> [String: String] {
        var context: [String: String] = [:]
        for item in items {
            let pair = item.split(separator: "=", maxSplits: 1).map { String($0).trimmed }
            guard pair.count == 2, !pair[0].isEmpty, !pair[1].isEmpty else {
                throw ValidationError("a context is name=value, like area=Kitchen; not '\(item)'")
            }
            context[pair[0]] = pair[1]
        }
        return context
    }
}
