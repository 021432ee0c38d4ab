import Foundation
import IntentLanguage
import IntentModel
import ModelStore
import TestSupport
import Testing

@testable import IntentRuntime

/// Shared content in, classification, routes and answers out.
@Suite("Share routes")
struct ShareTests {
    struct Classified: CustomTestStringConvertible, Sendable {
        var argument: String
        var kind: ShareItem.Content
        var title: String
        var testDescription: String { argument }
    }

    static let classified: [Classified] = [
        Classified(
            argument: "https://example.com/articles/quantum-computing.html", kind: .url, title: "quantum computing"),
        Classified(argument: "  https://www.swift.org/  ", kind: .url, title: "swift.org"),
        Classified(argument: "<https://radar.app/blog/why_we_track>", kind: .url, title: "why we track"),
        Classified(argument: "www.wikipedia.org", kind: .url, title: "wikipedia.org"),
        Classified(argument: "https://example.com/2024/11/", kind: .url, title: "example.com"),
        Classified(argument: "read https://swift.org later", kind: .text, title: "read https://swift.org later"),
        Classified(argument: "remember the milk\nand the eggs", kind: .text, title: "remember the milk"),
        Classified(argument: "https//broken", kind: .text, title: "https//broken"),
    ]

    @Test(arguments: classified)
    func classifies(_ c: Classified) throws {
        let item = try ShareItem.classify(c.argument)
        #expect(item.kind == c.kind)
        #expect(item.title == c.title)
    }

    struct Detected: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var type: String
        var testDescription: String { name }
    }

    static let detected: [Detected] = [
        Detected(name: "photo.dat", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], type: "image/png"),
        Detected(name: "photo.png", bytes: [0xFF, 0xD8, 0xFF, 0xE0], type: "image/jpeg"),
        Detected(name: "a.gif", bytes: Array("GIF89a....".utf8), type: "image/gif"),
        Detected(name: "clip", bytes: [0, 0, 0, 0x18] + Array("ftypmp42".utf8) + [0, 0], type: "video/mp4"),
        Detected(name: "clip.mov", bytes: [0, 0, 0, 0x14] + Array("ftypqt  ".utf8), type: "video/quicktime"),
        Detected(name: "IMG_1.HEIC", bytes: [0, 0, 0, 0x18] + Array("ftypheic".utf8), type: "image/heic"),
        Detected(name: "paper", bytes: Array("%PDF-1.7\n".utf8), type: "application/pdf"),
        Detected(
            name: "report.docx", bytes: [0x50, 0x4B, 0x03, 0x04, 0],
            type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
        Detected(name: "notes.md", bytes: Array("# Notes\n".utf8), type: "text/markdown"),
        Detected(name: "notes", bytes: Array("plain words ✓\n".utf8), type: "text/plain"),
        Detected(name: "blob", bytes: [0, 1, 2, 3, 0xFE], type: "application/octet-stream"),
        Detected(name: "empty", bytes: [], type: "application/x-empty"),
        Detected(name: "movie.mkv", bytes: [0x1A, 0x45, 0xDF, 0xA3], type: "video/webm"),
        Detected(name: "fake.jpg", bytes: Array("%PDF-1.4".utf8), type: "application/pdf"),
    ]

    @Test(arguments: detected)
    func detectsTypesByMagicThenExtension(_ c: Detected) {
        #expect(FileTypeDetector.detect(sample: c.bytes, name: c.name) == c.type)
    }

    struct Sized: Sendable {
        var bytes: Int
        var text: String
    }

    @Test(arguments: [
        Sized(bytes: 1, text: "1 byte"), Sized(bytes: 1023, text: "1023 bytes"), Sized(bytes: 1536, text: "1.5 KB"),
        Sized(bytes: 100 * 1024 * 1024, text: "100 MB"), Sized(bytes: 101 * 1024 * 1024, text: "101 MB"),
    ])
    func sizes(_ c: Sized) {
        #expect(ShareItem.size(c.bytes) == c.text)
    }

    let router = ShareRouter(graph: Bundled.graph)

    static func file(_ name: String, _ kind: ShareItem.Content, size: Int) -> ShareItem {
        ShareItem(kind: kind, text: "/tmp/" + name, path: "/tmp/" + name, type: "application/octet-stream", size: size)
    }

    struct Routing: CustomTestStringConvertible, Sendable {
        var name: String
        var items: [ShareItem]
        var to: String?
        var offers: [String]
        var rejections: [String]
        var testDescription: String { name }
    }

    static let url = ShareItem(kind: .url, text: "https://a.com/x", url: "https://a.com/x")
    static let note = ShareItem(kind: .text, text: "call mom")

    static let routings: [Routing] = [
        Routing(
            name: "one URL: Radar and sideBar", items: [url],
            offers: ["Radar — Create Radar", "sideBar — Save Website"], rejections: []),
        Routing(
            name: "one text: Radar and sideBar", items: [note], offers: ["Radar — Create Radar", "sideBar — Add Note"],
            rejections: []),
        Routing(
            name: "three URLs: refused with the reason", items: [url, url, url], offers: [],
            rejections: [
                "Radar accepts at most 1 web page; you shared 3", "sideBar accepts at most 1 web page; you shared 3",
            ]),
        Routing(
            name: "ten images to sideBar", items: Array(repeating: file("a.png", .image, size: 10), count: 10),
            offers: ["sideBar — Attach File"],
            rejections: ["Radar does not accept images"]),
        Routing(
            name: "eleven files", items: Array(repeating: file("a.pdf", .file, size: 10), count: 11), offers: [],
            rejections: ["Radar does not accept files", "sideBar accepts at most 10 files; you shared 11"]),
        Routing(
            name: "a file over the limit", items: [file("big.bin", .file, size: 100 * 1024 * 1024 + 1)], offers: [],
            rejections: ["Radar does not accept files", "sideBar accepts files up to 100 MB; big.bin is 100 MB"]),
        Routing(
            name: "a movie and a text", items: [file("m.mov", .movie, size: 10), note], offers: [],
            rejections: [
                "Radar does not accept movies",
                "sideBar does not accept movies and text together; share them one kind at a time",
            ]),
        Routing(name: "to one app", items: [url], to: "sidebar", offers: ["sideBar — Save Website"], rejections: []),
        Routing(
            name: "to an app without shares", items: [url], to: "Fortune", offers: [],
            rejections: ["Fortune accepts no shared content"]),
    ]

    @Test(arguments: routings)
    func routes(_ c: Routing) {
        let (offers, rejections) = router.route(c.items, to: c.to)
        #expect(offers.map(\.label) == c.offers)
        #expect(rejections.map(\.reason) == c.rejections)
    }

    @Test func aSharedURLIsSavedWithATitleFromTheURL() throws {
        let conversation = try Scratch().conversation()
        let (offers, _) = router.route(
            [try ShareItem.classify("https://example.com/blog/swift-on-linux.html")], to: "sideBar")
        let answers = conversation.share(
            [try ShareItem.classify("https://example.com/blog/swift-on-linux.html")], with: offers[0])
        #expect(answers.map(\.dialog) == ["Saved swift on linux."])
        #expect(try conversation.titles("Website") == ["swift on linux"])
    }

    @Test func aSharedPageBecomesARadarTopic() throws {
        let conversation = try Scratch().conversation()
        let item = try ShareItem.classify("https://news.example/quantum-computing")
        let (offers, _) = router.route([item], to: "Radar")
        #expect(
            conversation.share([item], with: offers[0]).map(\.dialog) == ["Now tracking “quantum computing” (Neutral)."]
        )
    }

    @Test func filesAreAttachedAllOrNothing() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        let paths = ["a.png", "b.pdf"].map { scratch.directory + "/" + $0 }
        _ = FileManager.default.createFile(
            atPath: paths[0], contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        _ = FileManager.default.createFile(atPath: paths[1], contents: Data("%PDF-1.7".utf8))
        let items = try paths.map { path throws(ShareError) in try ShareItem.file(path) }
        #expect(items.map(\.kind) == [.image, .file])
        let (offers, _) = router.route(items)
        #expect(offers.map(\.label) == ["sideBar — Attach File"])
        #expect(
            conversation.share(items, with: offers[0]).map(\.dialog) == [
                "Attached “a.png” (image/png, 8 bytes).", "Attached “b.pdf” (application/pdf, 8 bytes).",
            ])
        #expect(try conversation.titles("Attachment") == ["a.png", "b.pdf"])
    }

    @Test func aFailingItemRollsBackTheWholeShare() throws {
        let conversation = try Scratch().conversation()
        conversation.say("save https://a.com/x")
        let items = [ShareItem(kind: .url, text: "https://b.com/y", url: "https://b.com/y"), Self.url]
        let route = IntentGraph.ShareRoute(
            accepts: [.url], maximumCount: nil, maximumSize: nil,
            intent: QualifiedName(app: "sideBar", name: "SaveWebsite"),
            arguments: [], location: Bundled.graph.app(named: "sideBar")!.location)
        let offer = ShareRouter.Offer(app: "sideBar", route: route, intent: Bundled.graph.intent(route.intent)!)
        let answers = conversation.share(items, with: offer)
        #expect(answers.map(\.status) == [.error])
        #expect(answers.first?.dialog == "“a.com” is already saved. Nothing was shared.")
        #expect(try conversation.titles("Website") == ["a.com"])
    }

    struct Unshareable: CustomTestStringConvertible, Sendable {
        var argument: String
        var message: String
        var testDescription: String { argument }
    }

    @Test(arguments: [
        Unshareable(argument: "/no/such/file.png", message: "/no/such/file.png: no such file"),
        Unshareable(argument: "/tmp", message: "/tmp is a folder; share the files in it"),
        Unshareable(argument: "   ", message: "there is nothing to share: the text is empty"),
        Unshareable(argument: "a\u{1B}b", message: "the text holds control characters; share a file instead (--file)"),
        Unshareable(
            argument: String(repeating: "x", count: 100_001),
            message: "the text is 100001 bytes; a shared text is at most 100000 bytes"),
    ])
    func refusesBeforeRouting(_ c: Unshareable) {
        #expect(throws: ShareError(c.message)) { try ShareItem.classify(c.argument) }
    }
}
