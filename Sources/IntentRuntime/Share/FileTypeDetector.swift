import Foundation
import IntentModel

/// A file's MIME type from its first bytes (magic numbers), else from its extension: a small,
/// dependency-free stand-in for libmagic that knows the types people share.
public enum FileTypeDetector {
    /// How many leading bytes `detect` looks at.
    public static let sampleSize = 512

    /// The MIME type of a file whose first bytes are `sample` and whose name is `name`.
    public static func detect(sample: [UInt8], name: String) -> String {
        let byExtension = extensionTypes[PathText.pathExtension(name).lowercased()]
        if let magic = magic(sample) {
            // A ZIP container with a known extension (docx, epub…) says more by its extension.
            if magic == "application/zip", let byExtension { return byExtension }
            return magic
        }
        if let byExtension { return byExtension }
        if !sample.isEmpty, !sample.contains(0),
            String(validating: sample, as: UTF8.self) != nil
                || String(validating: sample.dropLast(3), as: UTF8.self) != nil
        {
            return "text/plain"
        }
        return sample.isEmpty ? "application/x-empty" : "application/octet-stream"
    }

    /// The type of the file at `path` (its first `sampleSize` bytes are read).
    public static func detect(path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CocoaError(.fileReadNoPermission)
        }
        defer { try? handle.close() }
        let data = try handle.read(upToCount: sampleSize) ?? Data()
        return detect(sample: [UInt8](data), name: PathText.lastComponent(path))
    }

    private static func magic(_ bytes: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if ascii("GIF87a") || ascii("GIF89a") { return "image/gif" }
        if ascii("RIFF"), ascii("WEBP", at: 8) { return "image/webp" }
        if ascii("RIFF"), ascii("WAVE", at: 8) { return "audio/wav" }
        if ascii("RIFF"), ascii("AVI ", at: 8) { return "video/x-msvideo" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "image/tiff" }
        if ascii("ftyp", at: 4), bytes.count >= 12 {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            switch brand {
            case "heic", "heix", "hevc", "mif1", "msf1": return "image/heic"
            case "avif": return "image/avif"
            case "qt  ": return "video/quicktime"
            case "M4A ": return "audio/mp4"
            default: return "video/mp4"
            }
        }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return "video/webm" }
        if ascii("%PDF-") { return "application/pdf" }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return "application/zip" }
        if starts([0x1F, 0x8B]) { return "application/gzip" }
        if ascii("ID3") || starts([0xFF, 0xFB]) { return "audio/mpeg" }
        if ascii("OggS") { return "audio/ogg" }
        if ascii("fLaC") { return "audio/flac" }
        if ascii("BM"), bytes.count >= 14 { return "image/bmp" }
        if ascii("<svg") || (ascii("<?xml") && String(decoding: bytes.prefix(256), as: UTF8.self).contains("<svg")) {
            return "image/svg+xml"
        }
        return nil
    }

    static let extensionTypes: [String: String] = [
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "heic": "image/heic", "heif": "image/heic", "tif": "image/tiff", "tiff": "image/tiff", "bmp": "image/bmp",
        "svg": "image/svg+xml", "avif": "image/avif",
        "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "webm": "video/webm",
        "mkv": "video/x-matroska", "avi": "video/x-msvideo",
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "wav": "audio/wav", "ogg": "audio/ogg", "flac": "audio/flac",
        "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip", "json": "application/json",
        "txt": "text/plain", "md": "text/markdown", "csv": "text/csv", "html": "text/html", "htm": "text/html",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "epub": "application/epub+zip",
    ]
}
