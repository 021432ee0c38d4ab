import Foundation
import IntentModel

/// Paths of shortcut files, resolved once: `lexical` for names (keys, messages, the files a run
/// knows), `canonical` for identity (the same file reached as `sub/../d.yaml` or through a
/// symlink is the same file) and for deciding which files a `run:` step may read.
public enum ShortcutPath {
    /// `.` and `a/..` removed, `//` collapsed, without touching the disk; a relative path stays
    /// relative (leading `..` kept): `Shortcuts/sub/../d.yaml` → `Shortcuts/d.yaml`.
    public static func lexical(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if let last = parts.last, last != ".." {
                    parts.removeLast()
                } else if !absolute {
                    parts.append(part)
                }
            default: parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// The absolute path with every symlink resolved (as far as the path exists), `.`/`..` removed.
    public static func canonical(_ path: String) -> String {
        let absolute =
            path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let clean = lexical(absolute)
        if let resolved = realpath(clean, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        // A file that does not exist: resolve its folder, keep its name.
        let directory = PathText.deletingLastComponent(clean)
        guard directory != clean, let resolved = realpath(directory, nil) else { return clean }
        defer { free(resolved) }
        return lexical(String(cString: resolved) + "/" + PathText.lastComponent(clean))
    }

    /// Whether `path` is `folder` or inside it (both canonical).
    public static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }
}
