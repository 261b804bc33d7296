import HTTP
import Locking

/// An answer served from memory, serialized once per version of its body (`HTTPResponse.prepared()`):
/// `GET /auth/keys` sends the same bytes until the keys change, so each request copies them whole.
final class PreparedAnswer: Sendable {
    /// The body the answer was built from, and the answer. A class: reading it under the lock costs a
    /// retain, not a copy of every field.
    private final class Entry: Sendable {
        let source: [UInt8]
        let response: HTTPResponse

        init(source: [UInt8], response: HTTPResponse) {
            self.source = source
            self.response = response
        }
    }

    private let cached = Lock<Entry?>(nil)
    private let build: @Sendable ([UInt8]) -> HTTPResponse

    /// `build` makes the answer for a body; it runs once per body.
    init(_ build: @escaping @Sendable ([UInt8]) -> HTTPResponse) {
        self.build = build
    }

    /// The prepared answer for `body`: the cached one while `body` is the array it was built from (the
    /// same storage: the provider hands out the bytes it holds until a rotation replaces them; the
    /// cache keeps that storage alive, so it cannot be reused for other bytes), else a new one.
    func response(for body: [UInt8]) -> HTTPResponse {
        let entry = cached.withLock { cached in
            if let cached, Self.sameStorage(cached.source, body) { return cached }
            let entry = Entry(source: body, response: build(body).prepared())
            cached = entry
            return entry
        }
        return entry.response
    }

    static func sameStorage(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count
            && a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }
}
