/// Byte classes and comparisons from RFC 9110 §5.6 used by the parser and the serializer.
enum ASCII {
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let colon = UInt8(ascii: ":")

    /// `tchar` from RFC 9110 §5.6.2 as a bit set over bytes 0–127: constants, so no table load or bounds check.
    @inline(__always)
    static func isToken(_ byte: UInt8) -> Bool {
        let low: UInt64 = 0x03FF_6CFA_0000_0000  // bytes 0–63: digits and !#$%&'*+-.
        let high: UInt64 = 0x57FF_FFFF_C7FF_FFFE  // bytes 64–127: letters and ^_`|~
        return byte < 64 ? (low >> UInt64(byte)) & 1 != 0 : byte < 128 && (high >> UInt64(byte - 64)) & 1 != 0
    }

    /// field-vchar, SP or HTAB (obs-text allowed): anything but controls other than HTAB, and DEL.
    @inline(__always)
    static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == tab || (byte >= 0x20 && byte != 0x7F)
    }

    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    static func equalsIgnoringCase(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where lower(a[i]) != lower(b[i]) { return false }
        return true
    }

    /// Compares `bytes` with a lowercase ASCII literal, ignoring the case of `bytes`.
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, lowercase literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        let lit = literal.utf8Start
        for i in 0..<bytes.count where lower(bytes[i]) != lit[i] { return false }
        return true
    }

    /// Whether `bytes` are exactly the ASCII literal (case-sensitive).
    @inline(__always)
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        let lit = literal.utf8Start
        for i in 0..<bytes.count where bytes[i] != lit[i] { return false }
        return true
    }

    /// The bytes as a String, invalid UTF-8 repaired as `String(decoding:as:)` does. Up to 15 ASCII bytes
    /// become a small string without a separate validation pass.
    @inline(__always)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return "" }
        return String(unsafeUninitializedCapacity: bytes.count) { out in
            out.baseAddress!.initialize(from: source, count: bytes.count)
            return bytes.count
        }
    }
}
