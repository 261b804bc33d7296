/// Header sets and whole answers serialized once. Most answers carry one of a few fixed header sets
/// (Apple's JSON headers), so their lines are copied, not rebuilt and scanned, for every response; an
/// answer served from memory (`GET /auth/keys`) is copied whole.
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

extension HTTPResponse {
    /// This response with its bytes built now for the usual exchange: serializing it then copies them
    /// (a JWKS answer: one copy instead of a status line, five fields, a length and a body).
    package func prepared() -> HTTPResponse {
        var bytes: [UInt8] = []
        let layout = serialize(into: &bytes, includeBody: true, close: false)
        var copy = self
        copy.wire = PreparedResponse(bytes: bytes, layout: layout, asksToClose: headers.asksToClose)
        return copy
    }

    /// Whether serializing copies bytes built by `prepared()`.
    package var isPrepared: Bool { wire != nil }
}

/// A response's bytes as `HTTPResponse.serialize` writes them with the body, without `Connection`.
final class PreparedResponse: Sendable {
    let bytes: [UInt8]
    let layout: HTTPResponse.SerializedLayout
    /// `HTTPHeaders.asksToClose` of its fields, read once.
    let asksToClose: Bool

    init(bytes: [UInt8], layout: HTTPResponse.SerializedLayout, asksToClose: Bool) {
        self.bytes = bytes
        self.layout = layout
        self.asksToClose = asksToClose
    }
}
