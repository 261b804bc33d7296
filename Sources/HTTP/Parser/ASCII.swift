/// Byte classes and comparisons from RFC 9110 §5.6 used by the parser and the serializer.
enum ASCII {
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let colon = UInt8(ascii: ":")

    /// `tchar` from RFC 9110 §5.6.2, as a 256-entry table.
    static let tokenTable: [Bool] = (0..<256).map { value in
        let byte = UInt8(value)
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    @inline(__always)
    static func isToken(_ byte: UInt8) -> Bool { tokenTable[Int(byte)] }

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
}
