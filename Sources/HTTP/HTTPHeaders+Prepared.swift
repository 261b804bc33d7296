/// Header sets serialized once: most answers carry one of a few fixed sets (Apple's JSON headers), so
/// their lines are copied, not rebuilt and scanned, for every response.
extension HTTPHeaders {
    /// These fields with their wire form built now. Fields added later are serialized as usual.
    package func prepared() -> HTTPHeaders {
        var bytes: [UInt8] = []
        for field in fields { HTTPResponse.appendField(field, to: &bytes) }
        var copy = self
        copy.wire = PreparedFields(bytes: bytes, fieldCount: fields.count)
        return copy
    }

    /// Whether these are `original`'s prepared fields, unchanged: the same wire form covering every
    /// field (`add` keeps it but adds a field; `set` and `remove` drop it).
    package func isUnchanged(_ original: HTTPHeaders) -> Bool {
        guard let wire, wire === original.wire else { return false }
        return fields.count == wire.fieldCount
    }
}

/// The serialized lines (`Name: value\r\n`, sanitized, framing fields left out) of a prefix of a header set.
final class PreparedFields: Sendable {
    let bytes: [UInt8]
    let fieldCount: Int

    init(bytes: [UInt8], fieldCount: Int) {
        self.bytes = bytes
        self.fieldCount = fieldCount
    }
}
