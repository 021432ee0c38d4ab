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

extension Array where Element == Unicode.Scalar {
    /// The scalars of `text`. ASCII text (nearly every expression and template) is copied byte by
    /// byte; `Array(text.unicodeScalars)` decoded the text twice, once to count it.
    init(scalarsOf text: String) {
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> [Unicode.Scalar]? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return [Unicode.Scalar](unsafeUninitializedCapacity: bytes.count) { buffer, initialized in
                for offset in 0..<bytes.count { buffer[offset] = Unicode.Scalar(bytes[offset]) }
                initialized = bytes.count
            }
        }
        self = (ascii ?? nil) ?? Array(text.unicodeScalars)
    }
}
