import HTTP

/// A request's query and `application/x-www-form-urlencoded` body, decoded once when the request
/// enters the pipeline. Handlers, fault rules, the timeline and the journal all read this value; no
/// other code in the server decodes a query or a form body.
package struct RequestForm: Sendable {
    /// One decoded part of the request.
    package enum Part: Sendable {
        /// No query / no form body (a GET, an empty body).
        case absent
        /// A body whose Content-Type is not form-urlencoded (e.g. JSON); it was not decoded.
        case notForm
        case fields([(name: String, value: String)])
        /// Bad percent-escapes or invalid UTF-8; the message says where.
        case invalid(String)

        /// The decoded fields, or none.
        package var fields: [(name: String, value: String)] {
            if case .fields(let fields) = self { fields } else { [] }
        }
    }

    package let query: Part
    package let body: Part

    /// Decodes the query and, when its Content-Type says form-urlencoded, the body.
    package init(_ request: borrowing HTTPRequest) {
        #if DEBUG
            RequestForm.decodeCounter?.increment()
        #endif
        if let query = request.query, !query.isEmpty {
            self.query = Self.decode(Array(query.utf8))
        } else {
            self.query = .absent
        }
        let isForm =
            (!request.body.isEmpty || request.method != .get)
            && request.headers.mediaType == "application/x-www-form-urlencoded"
        if isForm {
            body = Self.decode(request.body)
        } else {
            body = request.body.isEmpty ? .absent : .notForm
        }
    }

    /// Query fields, then body fields: what fault rules, timeline triggers and the journal see.
    package var all: [(name: String, value: String)] {
        switch (query, body) {
        case (.fields(let query), .fields(let body)): query + body
        case (.fields(let fields), _), (_, .fields(let fields)): fields
        default: []
        }
    }

    /// Whether the query or the body decoded to at least one field (a plain GET has none).
    package var hasFields: Bool { !query.fields.isEmpty || !body.fields.isEmpty }

    /// The first value of `name` in the query or the body.
    package func field(_ name: String) -> String? {
        if case .fields(let fields) = query, let value = fields.first(where: { $0.name == name })?.value {
            return value
        }
        if case .fields(let fields) = body { return fields.first { $0.name == name }?.value }
        return nil
    }

    /// Whether the Content-Type is `application/x-www-form-urlencoded`, parameters (charset) allowed.
    private static func decode(_ bytes: [UInt8]) -> Part {
        do {
            return .fields(try URLEncodedForm.decode(bytes))
        } catch {
            return .invalid(error.message)
        }
    }

    #if DEBUG
        /// Counts decodes on this task (tests prove one decode per request).
        @TaskLocal static var decodeCounter: DecodeCounter?

        final class DecodeCounter: @unchecked Sendable {
            // Only touched by the synchronous request path of the task that set it.
            var count = 0
            func increment() { count += 1 }
        }
    #endif
}
