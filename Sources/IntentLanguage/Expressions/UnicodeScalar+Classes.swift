import IntentModel

/// Character classes for the template and expression scanners, which work on Unicode scalars
/// (columns in diagnostics count scalars too). ASCII is decided without a table lookup.
extension Unicode.Scalar {
    var isSpace: Bool {
        isASCII ? (self == " " || self == "\t" || self == "\n" || self == "\r") : properties.isWhitespace
    }

    var isDigit: Bool { value >= 0x30 && value <= 0x39 }

    var isIdentifierStart: Bool {
        if isASCII { return (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A) || self == "_" }
        return properties.isAlphabetic
    }

    var isIdentifierPart: Bool { isIdentifierStart || isDigit || (!isASCII && properties.numericType != nil) }
}

extension String {
    init(scalars: ArraySlice<Unicode.Scalar>) {
        if scalars.allSatisfy(\.isASCII) {
            self = String(unsafeUninitializedCapacity: scalars.count) { buffer in
                for (offset, scalar) in scalars.enumerated() {
                    buffer[offset] = UInt8(truncatingIfNeeded: scalar.value)
                }
                return scalars.count
            }
        } else {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            self = String(view)
        }
    }
}

/// Text as Unicode scalars by offset, for the template and expression scanners: ASCII text is read
/// in place from its UTF-8 bytes (`ASCIIScalars`), other text from an array of its scalars. Each
/// parse of ASCII text made an array of its scalars and freed it (about 1,200 instructions an
/// expression, 13,000 expressions in a 1,000-intent compile).
protocol ScalarText {
    var count: Int { get }
    subscript(_ offset: Int) -> Unicode.Scalar { get }
    /// The text of `range` (offsets).
    func string(_ range: Range<Int>) -> String
}

/// ASCII bytes read as scalars, valid while the buffer is.
struct ASCIIScalars: ScalarText {
    let bytes: UnsafeBufferPointer<UInt8>

    var count: Int { bytes.count }

    subscript(_ offset: Int) -> Unicode.Scalar { Unicode.Scalar(bytes[offset]) }

    func string(_ range: Range<Int>) -> String {
        // Made to size: short ASCII text becomes a small string without a validating pass.
        String(unsafeUninitializedCapacity: range.count) { buffer in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(
                from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range])))
            return range.count
        }
    }

    /// `body` with `text`'s bytes as scalars when the text is ASCII (and stored contiguously);
    /// nil otherwise, for the caller to read an array of scalars instead.
    static func read<R, E: Error>(_ text: String, _ body: (ASCIIScalars) throws(E) -> R) throws(E) -> R? {
        let result = text.utf8.withContiguousStorageIfAvailable { bytes -> Result<R, E>? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return Result { () throws(E) -> R in try body(ASCIIScalars(bytes: bytes)) }
        }
        guard let outcome = result ?? nil else { return nil }
        return try outcome.get()
    }
}

extension Array: ScalarText where Element == Unicode.Scalar {
    func string(_ range: Range<Int>) -> String { String(scalars: self[range]) }
}
