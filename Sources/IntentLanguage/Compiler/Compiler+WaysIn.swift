import Foundation
import IntentModel
import YAML

extension Diagnostic.Message {
    static func slotNotParameter(_ slot: String, _ intent: String) -> Self {
        "'\(slot)' is not a parameter of '\(intent)'"
    }
    static func linkScheme(_ scheme: String, _ app: String, _ own: String?) -> Self {
        if let own {
            return "'\(scheme)' is not \(app)'s scheme; a link uses '\(own):' or is a universal link (https:)"
        }
        return "\(app) declares no 'scheme:'; add 'scheme: \(scheme)' or use a universal link (https:)"
    }
    static func sameURLs(_ url: String, _ other: String, _ otherApp: String) -> Self {
        "the link '\(url)' matches the same URLs as '\(other)' (\(otherApp))"
    }
    static func listInLink(_ slot: String) -> Self { "a link cannot fill '\(slot)': it is a list" }
    static func badSize(_ text: String) -> Self {
        "'\(text)' is not a size: write bytes or a number with KB, MB or GB (100MB)"
    }
}

/// `links:`, `share:` and `activity:`: parsed, every name resolved, every template checked.
extension Compiler {
    // MARK: Links

    mutating func compileLinks(app name: String) -> [IntentGraph.LinkRoute] {
        guard let app = apps[name] else { return [] }
        var routes: [IntentGraph.LinkRoute] = []
        for definition in app.files.flatMap(\.links) {
            if let route = compileLink(definition, app: app) { routes.append(route) }
        }
        return routes
    }

    private mutating func compileLink(_ definition: LinkDefinition, app: AppDeclaration) -> IntentGraph.LinkRoute? {
        guard let parsed = parseLinkTemplate(definition.url) else { return nil }
        if !(parsed.scheme == "https" || parsed.scheme == "http"), parsed.scheme != app.scheme?.lowercased() {
            diagnostics.error(
                .linkScheme(parsed.scheme, app.name, app.scheme), at: locate(definition.url, parsed.schemeSpan))
        }
        let qualified = QualifiedName(app: app.name, name: definition.intent.value)
        guard let intent = compileIntent(qualified) else {
            if app.intentDefinitions[definition.intent.value] == nil {
                diagnostics.unknown(
                    "intent", definition.intent.value, at: definition.intent.range,
                    known: app.intentDefinitions.keys.sorted())
            }
            return nil
        }
        var failed = false
        var seen: Set<String> = []
        for (slot, span) in parsed.slots {
            guard let parameter = intent.parameter(slot) else {
                diagnostics.missing(
                    .slotNotParameter(slot, intent.name.name), slot, at: locate(definition.url, span),
                    known: intent.parameters.map(\.name))
                failed = true
                continue
            }
            if !seen.insert(slot).inserted {
                diagnostics.error("slot '{\(slot)}' appears twice in one link", at: locate(definition.url, span))
                failed = true
            }
            if parameter.type.element != nil {
                diagnostics.error(.listInLink(slot), at: locate(definition.url, span))
                failed = true
            }
        }
        guard !failed else { return nil }
        return IntentGraph.LinkRoute(
            url: definition.url.value, scheme: parsed.scheme, host: parsed.host, path: parsed.path,
            query: parsed.query, intent: qualified, location: definition.url.range)
    }

    private struct ParsedLink {
        var scheme: String
        var schemeSpan: Range<Int>
        var host: String
        var path: [IntentGraph.LinkRoute.Segment] = []
        var query: [IntentGraph.LinkRoute.QueryItem] = []
        /// Every slot with its span in the template.
        var slots: [(String, Range<Int>)] = []
    }

    /// `scheme://host/word/{slot}?key={slot}&…`, with every problem reported at its place.
    private mutating func parseLinkTemplate(_ located: Located<String>) -> ParsedLink? {
        let scalars = Array(located.value.unicodeScalars)
        func text(_ range: Range<Int>) -> String {
            var result = ""
            result.unicodeScalars.append(contentsOf: scalars[range])
            return result
        }
        func fail(_ message: Diagnostic.Message, _ span: Range<Int>) -> ParsedLink? {
            diagnostics.error(message, at: locate(located, span))
            return nil
        }
        // Scheme.
        var index = 0
        while index < scalars.count, scalars[index].isSchemeCharacter {
            index += 1
        }
        guard index > 0, index + 2 < scalars.count, scalars[index] == ":", scalars[index + 1] == "/",
            scalars[index + 2] == "/", scalars[0].isASCIILetter
        else {
            return fail("a link starts with a scheme and '//': radar://open/{radar}", 0..<max(1, index))
        }
        var parsed = ParsedLink(scheme: text(0..<index).lowercased(), schemeSpan: 0..<index, host: "")
        index += 3
        // Host.
        let hostStart = index
        while index < scalars.count, scalars[index] != "/", scalars[index] != "?" { index += 1 }
        let host = text(hostStart..<index)
        if host.isEmpty { return fail("a link needs a host after '//': radar://open/…", hostStart..<hostStart + 1) }
        if host.contains("{") || host.contains("}") {
            return fail("the host cannot be a slot; put slots in the path or the query", hostStart..<index)
        }
        parsed.host = host.lowercased()
        // Path.
        while index < scalars.count, scalars[index] == "/" {
            index += 1
            let start = index
            while index < scalars.count, scalars[index] != "/", scalars[index] != "?" { index += 1 }
            let segment = text(start..<index)
            if segment.isEmpty {
                if index == scalars.count || scalars[index] == "?" { break }  // a trailing slash
                return fail("empty path segment ('//')", start - 1..<start + 1)
            }
            if segment == ".." || segment == "." {
                return fail("'\(segment)' cannot be a path segment", start..<index)
            }
            if let slot = slotName(segment) {
                guard Self.isIdentifier(slot) else { return fail("'\(slot)' is not a slot name", start..<index) }
                parsed.path.append(.slot(slot))
                parsed.slots.append((slot, start + 1..<index - 1))
            } else if segment.contains("{") || segment.contains("}") {
                return fail("a slot fills a whole path segment: /{name}/", start..<index)
            } else {
                parsed.path.append(.literal(segment.removingPercentEncoding ?? segment))
            }
        }
        // Query.
        if index < scalars.count, scalars[index] == "?" {
            index += 1
            var keys: Set<String> = []
            while index < scalars.count {
                let start = index
                while index < scalars.count, scalars[index] != "&" { index += 1 }
                let item = text(start..<index)
                if index < scalars.count { index += 1 }
                guard !item.isEmpty else { continue }
                let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let keyEnd = start + parts[0].unicodeScalars.count
                guard parts.count == 2, !parts[0].isEmpty, let slot = slotName(parts[1]) else {
                    return fail(
                        "a query item is key={slot}, e.g. topic={topic}", start..<start + item.unicodeScalars.count)
                }
                guard Self.isIdentifier(slot) else {
                    return fail("'\(slot)' is not a slot name", keyEnd + 1..<start + item.unicodeScalars.count)
                }
                guard keys.insert(parts[0]).inserted else {
                    return fail("the query key '\(parts[0])' appears twice", start..<keyEnd)
                }
                parsed.query.append(IntentGraph.LinkRoute.QueryItem(key: parts[0], slot: slot))
                parsed.slots.append((slot, keyEnd + 2..<start + item.unicodeScalars.count - 1))
            }
        }
        if index < scalars.count {
            return fail("unexpected text in a link", index..<scalars.count)
        }
        return parsed
    }

    private func slotName(_ text: String) -> String? {
        guard text.hasPrefix("{"), text.hasSuffix("}"), text.count >= 2 else { return nil }
        let inner = String(text.dropFirst().dropLast())
        return inner.contains("{") || inner.contains("}") ? nil : inner
    }

    /// Two routes matching one URL, and one scheme claimed by two apps, are errors naming both.
    mutating func checkLinkConflicts(_ apps: [IntentGraph.App]) {
        var schemes: [String: (app: String, range: SourceRange)] = [:]
        for app in apps {
            guard let declaration = self.apps[app.name], let scheme = declaration.files.lazy.compactMap(\.scheme).first
            else { continue }
            let key = scheme.value.lowercased()
            if let other = schemes[key] {
                diagnostics.error(
                    "the scheme '\(scheme.value)' is already \(other.app)'s", at: scheme.range,
                    notes: [Diagnostic.Note(.firstDeclaredHere, at: other.range)])
            } else {
                schemes[key] = (app.name, scheme.range)
            }
        }
        let all = apps.flatMap { app in app.links.map { (app: app.name, route: $0) } }
        for (index, later) in all.enumerated() {
            for earlier in all[..<index] where earlier.route.overlaps(later.route) {
                diagnostics.error(
                    .sameURLs(later.route.url, earlier.route.url, earlier.app), at: later.route.location,
                    notes: [Diagnostic.Note("'\(earlier.route.url)' is declared here", at: earlier.route.location)])
                break
            }
        }
        // An entity that an intent opens should have a link to be opened by.
        for app in apps {
            for intent in app.intents where intent.opens != nil {
                for parameter in intent.parameters {
                    guard case .entity(let entity) = parameter.type else { continue }
                    let routed = all.contains { entry in
                        entry.route.intent == intent.name && entry.route.pathSlots == [parameter.name]
                    }
                    if !routed {
                        diagnostics.warning(
                            "'\(intent.name.name)' opens a \(entity.name) but no link routes to it; add one, e.g. { url: \"\((self.apps[app.name]?.scheme ?? "app").lowercased())://open/{\(parameter.name)}\", intent: \(intent.name.name) }, so a \(entity.name) has a canonical link",
                            at: intent.location)
                    }
                }
            }
        }
    }

    // MARK: Share routes

    mutating func compileShareRoutes(app name: String) -> [IntentGraph.ShareRoute] {
        guard let app = apps[name] else { return [] }
        var routes: [IntentGraph.ShareRoute] = []
        for definition in app.files.flatMap(\.share) {
            if let route = compileShareRoute(definition, app: app) { routes.append(route) }
        }
        return routes
    }

    private mutating func compileShareRoute(_ definition: ShareRouteDefinition, app: AppDeclaration)
        -> IntentGraph.ShareRoute?
    {
        let accepts: [IntentGraph.ShareRoute.Content] = cases(definition.accepts, "content kind")
        if definition.accepts.isEmpty {
            diagnostics.error("'accepts' names at least one of: url, text, image, movie, file", at: definition.range)
        }
        if let max = definition.max, max.value < 1 {
            diagnostics.error("'max' is at least 1", at: max.range)
        }
        var maximumSize: Int?
        if let size = definition.maxSize {
            if let bytes = Self.byteCount(size.value) {
                maximumSize = bytes
                if !accepts.contains(where: { [.image, .movie, .file].contains($0) }) {
                    diagnostics.warning("'maxSize' applies to files; this route accepts none", at: size.range)
                }
            } else {
                diagnostics.error(.badSize(size.value), at: size.range)
            }
        }
        let qualified = QualifiedName(app: app.name, name: definition.intent.value)
        guard let intent = compileIntent(qualified) else {
            if app.intentDefinitions[definition.intent.value] == nil {
                diagnostics.unknown(
                    "intent", definition.intent.value, at: definition.intent.range,
                    known: app.intentDefinitions.keys.sorted())
            }
            return nil
        }
        var scope = constantScope(app: app.name)
        for variable in IntentGraph.ShareRoute.variables { scope[variable.name] = variable.type }
        var arguments: [IntentGraph.Assignment] = []
        for (name, node) in definition.with {
            guard let parameter = intent.parameter(name.value) else {
                diagnostics.missing(
                    "'\(intent.name.name)' has no parameter '\(name.value)'", name.value, at: name.range,
                    known: intent.parameters.map(\.name))
                continue
            }
            guard let (template, type) = assignmentTemplate(node, scope: scope, app: app.name) else { continue }
            if let found = type.valueType, !parameter.type.accepts(found),
                !(parameter.type == .string && found == .url), !(parameter.type == .url && found == .string),
                !(parameter.type.enumName != nil && found == .string)
            {
                diagnostics.error(.propertyType(name.value, parameter.type, found), at: node.range)
            }
            arguments.append(IntentGraph.Assignment(name: name.value, value: template))
        }
        guard !accepts.isEmpty else { return nil }
        return IntentGraph.ShareRoute(
            accepts: accepts, maximumCount: definition.max?.value, maximumSize: maximumSize, intent: qualified,
            arguments: arguments, location: definition.range)
    }

    /// `100MB`, `1.5 GB`, `500kb`, `2048` → bytes (K, M, G are powers of 1024, like the seed's 100 MB limit).
    static func byteCount(_ text: String) -> Int? {
        let trimmed = text.trimmed.uppercased()
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        guard !digits.isEmpty, let number = Double(digits), number >= 0 else { return nil }
        let unit = trimmed.dropFirst(digits.count).trimmed
        let factor: Double
        switch unit {
        case "", "B": factor = 1
        case "K", "KB", "KIB": factor = 1024
        case "M", "MB", "MIB": factor = 1024 * 1024
        case "G", "GB", "GIB": factor = 1024 * 1024 * 1024
        default: return nil
        }
        let bytes = number * factor
        guard bytes < Double(Int.max / 2) else { return nil }
        return Int(bytes)
    }

    // MARK: Activities

    mutating func compileActivity(
        _ definition: ActivityDefinition, scope: ExpressionChecker.Scope, app: String
    ) -> IntentGraph.Activity? {
        let type = definition.type.value
        if type.isEmpty || !type.unicodeScalars.allSatisfy({ $0.isSchemeCharacter || $0 == "_" }) {
            diagnostics.error(
                "an activity type is made of letters, digits, '-', '_' and '.' (view-radar)",
                at: definition.type.range)
        }
        let title = definition.title.flatMap { checkTemplate($0, scope: scope, app: app)?.0 }
        let eligible: [IntentGraph.Activity.Eligibility] = cases(definition.eligible, "eligibility")
        var expiry = IntentGraph.Activity.defaultExpiry
        if let expires = definition.expires {
            if let seconds = DurationText.parse(expires.value), seconds > 0 {
                expiry = seconds
            } else {
                diagnostics.error(
                    "'\(expires.value)' is not a duration: write 8h, 30m or 1h30m", at: expires.range)
            }
        }
        return IntentGraph.Activity(
            type: type, title: title, eligible: definition.eligible.isEmpty ? [.handoff] : eligible,
            expiry: expiry, keywords: definition.keywords.map(\.value))
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    fileprivate var isSchemeCharacter: Bool {
        isASCIILetter || ("0"..."9").contains(self) || self == "+" || self == "-" || self == "."
    }
}
