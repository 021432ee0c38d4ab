/// Path names taken apart and joined as text, by `/` alone. Foundation's `NSString` path methods
/// (`lastPathComponent`, `pathExtension`, `deletingLastPathComponent`…) trap on Linux on some
/// ordinary paths, such as one with `//` before a single non-ASCII last character (`a//é`), and
/// paths come from outside (shared files, `--store`, shortcut files): these never trap.
public enum PathText {
    /// `a/b/c.txt` → `c.txt`; `a/b/` → `b`; `/` → `/`; `""` → `""`.
    public static func lastComponent(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard let last = parts.last else { return path.hasPrefix("/") ? "/" : "" }
        return String(last)
    }

    /// `a/b/c` → `a/b`; `/a` → `/`; `a` → ``; `a//b/` → `a`.
    public static func deletingLastComponent(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count > 1 else { return absolute ? "/" : "" }
        return (absolute ? "/" : "") + parts.dropLast().joined(separator: "/")
    }

    /// `c.tar.gz` → `gz`; `.profile` → `""`; `notes` → `""`; `a.` → `""`.
    public static func pathExtension(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// `a` + `b` → `a/b`; `a/` + `b` → `a/b`; `` + `b` → `b`.
    public static func appending(_ path: String, _ component: String) -> String {
        if path.isEmpty { return component }
        return path.hasSuffix("/") ? path + component : path + "/" + component
    }
}
