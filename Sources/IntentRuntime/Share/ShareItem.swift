import Foundation
import IntentModel
public import IntentModel

/// One piece of shared content, classified: a web page, a text, or a file with its detected type.
public struct ShareItem: Sendable, Hashable {
    public typealias Content = IntentGraph.ShareRoute.Content

    public let kind: Content
    /// The text as shared: the text itself, the URL, or the file's path.
    public let text: String
    /// For a web page.
    public let url: String?
    /// For a file: its path, name, MIME type and size in bytes.
    public let path: String?
    public let type: String?
    public let size: Int?

    /// The longest text accepted, in UTF-8 bytes.
    public static let maximumTextBytes = 100_000

    public init(
        kind: Content, text: String, url: String? = nil, path: String? = nil, type: String? = nil, size: Int? = nil
    ) {
        self.kind = kind
        self.text = text
        self.url = url
        self.path = path
        self.type = type
        self.size = size
    }

    /// The file's name (last path component), for files.
    public var name: String? { path.map { PathText.lastComponent($0) } }

    /// A short title without the network: a page's last path segment in words, else its host; a
    /// text's first line; a file's name.
    public var title: String {
        switch kind {
        case .url: Self.title(ofURL: url ?? text)
        case .text: Self.firstLine(text)
        case .image, .movie, .file: name ?? text
        }
    }

    /// How messages name the item: a page by its URL, a text by its start, a file by its name.
    public var label: String {
        switch kind {
        case .url: url ?? text
        case .text: "“" + (text.count > 30 ? String(text.prefix(30)) + "…" : text) + "”"
        case .image, .movie, .file: name ?? text
        }
    }

    // MARK: Classification

    /// A shared argument: a URL (when that is all it is), a path to an existing file, else text.
    public static func classify(_ argument: String) throws(ShareError) -> ShareItem {
        let trimmed = argument.trimmingCharacters(in: .whitespacesAndNewlines)
        if let url = webAddress(trimmed) {
            // A link is stored and printed as given: one with a control character is refused.
            if let scalar = trimmed.unicodeScalars.first(where: isForbidden) {
                throw ShareError(
                    "the link holds a control character (\(ControlCharacters.name(scalar))); links are printable text")
            }
            return ShareItem(kind: .url, text: trimmed, url: url)
        }
        let looksLikePath = ["/", "./", "../", "~/"].contains { trimmed.hasPrefix($0) } || looksLikeFileName(trimmed)
        if looksLikePath || (!trimmed.contains("\n") && FileManager.default.fileExists(atPath: trimmed)) {
            return try file(trimmed)
        }
        return try self.text(argument)
    }

    /// One word ending in an extension of a file type we know (`repot.pdf`): meant as a file, so a
    /// misspelt name is refused ("no such file"), never shared as the text "repot.pdf".
    static func looksLikeFileName(_ word: String) -> Bool {
        guard !word.contains(where: \.isWhitespace), let dot = word.lastIndex(of: "."), dot > word.startIndex
        else { return false }
        return FileTypeDetector.extensionTypes[word[word.index(after: dot)...].lowercased()] != nil
    }

    /// Text as shared (standard input or an argument): printable, not empty, not too long.
    public static func text(_ text: String) throws(ShareError) -> ShareItem {
        // Line breaks as a store keeps them: `\r\n` and a lone `\r` are `\n`.
        let trimmed = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ShareError("there is nothing to share: the text is empty") }
        guard trimmed.utf8.count <= maximumTextBytes else {
            throw ShareError(
                "the text is \(trimmed.utf8.count) bytes; a shared text is at most \(maximumTextBytes) bytes")
        }
        // C0 (but tab and line break), DEL, C1 (a lone U+009B is a terminal's CSI) and NUL.
        if trimmed.unicodeScalars.contains(where: isForbidden) {
            throw ShareError("the text holds control characters; share a file instead (--file)")
        }
        if let url = webAddress(trimmed) { return ShareItem(kind: .url, text: trimmed, url: url) }
        return ShareItem(kind: .text, text: trimmed)
    }

    /// A file by path: it must exist, be a regular file and be readable; its type is detected.
    public static func file(_ path: String) throws(ShareError) -> ShareItem {
        // A file's path and name are stored and printed: one with a control character is refused.
        if let scalar = path.unicodeScalars.first(where: isForbidden) {
            throw ShareError(
                "the file's path holds a control character (\(ControlCharacters.name(scalar))); rename the file to share it"
            )
        }
        let expanded = (path as NSString).expandingTildeInPath
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: expanded, isDirectory: &isDirectory) else {
            let hint = nearestFile(to: expanded).map { "; did you mean '\(ControlCharacters.escaped($0))'?" }
            throw ShareError("\(path): no such file" + (hint ?? ""))
        }
        // A symlink is shared as the file it points to (attributes are read without following links).
        let resolved = URL(fileURLWithPath: expanded).resolvingSymlinksInPath().path
        guard !isDirectory.boolValue else { throw ShareError("\(path) is a folder; share the files in it") }
        guard FileManager.default.isReadableFile(atPath: resolved),
            let attributes = try? FileManager.default.attributesOfItem(atPath: resolved),
            attributes[.type] as? FileAttributeType == .typeRegular
        else {
            throw ShareError("\(path) cannot be read")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        let type: String
        do { type = try FileTypeDetector.detect(path: resolved) } catch { throw ShareError("\(path) cannot be read") }
        let kind: Content = type.hasPrefix("image/") ? .image : type.hasPrefix("video/") ? .movie : .file
        return ShareItem(kind: kind, text: expanded, path: expanded, type: type, size: size)
    }

    /// The name in `path`'s folder closest to its own, for "did you mean".
    static func nearestFile(to path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        return EditDistance.closest(to: url.lastPathComponent, in: names)
    }

    /// `https://…` or `http://…` with a host and no spaces, or `www.…`: the address, else nil.
    static func webAddress(_ text: String) -> String? {
        var candidate = text
        if candidate.hasPrefix("<"), candidate.hasSuffix(">") { candidate = String(candidate.dropFirst().dropLast()) }
        guard !candidate.isEmpty, !candidate.contains(where: \.isWhitespace) else { return nil }
        let lower = candidate.lowercased()
        if lower.hasPrefix("www."), candidate.count > 5, candidate.dropFirst(4).contains(".") {
            return "https://" + candidate
        }
        for scheme in ["https://", "http://"] where lower.hasPrefix(scheme) {
            let host = candidate.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            return host.isEmpty ? nil : candidate
        }
        return nil
    }

    /// `https://example.com/blog/quantum-computing.html` → `quantum computing`; `https://www.swift.org/` → `swift.org`.
    static func title(ofURL url: String) -> String {
        let afterScheme = url.range(of: "://").map { String(url[$0.upperBound...]) } ?? url
        let withoutQuery = afterScheme.prefix { $0 != "?" && $0 != "#" }
        let parts = withoutQuery.split(separator: "/").map(String.init)
        var host = parts.first ?? url
        if host.lowercased().hasPrefix("www.") { host = String(host.dropFirst(4)) }
        guard let last = parts.dropFirst().last else { return host }
        // Percent-decoded, the segment may hold anything (`%1B%5B2J`, `%00`): control characters
        // become spaces, so the title is text a store keeps as it is.
        var words = String(
            String.UnicodeScalarView(
                (last.removingPercentEncoding ?? last).unicodeScalars.map { isForbidden($0) ? " " : $0 })
        )
        .split(separator: " ").joined(separator: " ")
        for suffix in [".html", ".htm", ".php", ".aspx", ".asp"] where words.lowercased().hasSuffix(suffix) {
            words = String(words.dropLast(suffix.count))
        }
        words = words.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
            .replacingOccurrences(of: "+", with: " ").trimmingCharacters(in: .whitespaces)
        guard words.contains(where: \.isLetter) else { return host }
        return words
    }

    /// What shared content may not hold: ControlCharacters' set (tab and line feed are text).
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        ControlCharacters.isForbidden(scalar)
    }

    /// The first line, at most 100 characters (cut at a word).
    static func firstLine(_ text: String) -> String {
        let line =
            text.split(whereSeparator: \.isNewline).first.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? text
        guard line.count > 100 else { return line }
        let cut = line.prefix(100)
        return String(cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut)
    }

    /// `104857600` → `100 MB`, `1536` → `1.5 KB`.
    public static func size(_ bytes: Int) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(bytes) byte\(bytes == 1 ? "" : "s")" }
        let rounded = (value * 10).rounded() / 10
        let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
        return "\(text) \(units[unit])"
    }
}

/// Content that cannot be shared: unreadable, empty, too large, accepted by no app. Nothing is written.
public struct ShareError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
