import Foundation
import IntentModel
import Testing

/// Paths taken apart by `/` alone, never trapping (Foundation's NSString methods trap on `a//é`).
struct PathTextTests {
    static let cases: [(path: String, last: String, parent: String, ext: String)] = [
        ("a/b/c.txt", "c.txt", "a/b", "txt"),
        ("/a", "a", "/", ""),
        ("a", "a", "", ""),
        ("a/b/", "b", "a", ""),
        ("/", "/", "/", ""),
        ("", "", "", ""),
        ("x.tar.gz", "x.tar.gz", "", "gz"),
        (".profile", ".profile", "", ""),
        ("a//é", "é", "a", ""),
        ("//é", "é", "/", ""),
        ("p\u{0C}tp://\u{FFFD}", "\u{FFFD}", "p\u{0C}tp:", ""),
        ("dir//é.txt", "é.txt", "dir", "txt"),
    ]

    @Test(arguments: cases)
    func takesPathsApart(_ c: (path: String, last: String, parent: String, ext: String)) {
        #expect(PathText.lastComponent(c.path) == c.last)
        #expect(PathText.deletingLastComponent(c.path) == c.parent)
        #expect(PathText.pathExtension(c.path) == c.ext)
    }

    @Test func joins() {
        #expect(PathText.appending("a", "b") == "a/b")
        #expect(PathText.appending("a/", "b") == "a/b")
        #expect(PathText.appending("", "b") == "b")
        #expect(PathText.appending("/", "b") == "/b")
    }
}
