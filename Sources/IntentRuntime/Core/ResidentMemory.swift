import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The memory the process holds (its resident set): what bounds a shortcut run as a whole, besides
/// the size of each value it builds.
enum ResidentMemory {
    /// Bytes resident now, or nil where that cannot be read (only Linux's /proc is read).
    static func current() -> Int? {
        #if os(Linux)
            guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
            let fields = text.split(separator: " ")
            guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
            return nil
        #endif
    }
}
