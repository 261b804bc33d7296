import HTTPServer

/// Reading `application/x-www-form-urlencoded` request bodies, as Apple's POST endpoints require.
enum FormBody {
    enum Failure: Error, Equatable {
        /// Content-Type missing or not form-urlencoded (e.g. a JSON body).
        case notForm
        /// Bad percent-escapes or invalid UTF-8.
        case badEncoding(String)
    }

    /// Whether the Content-Type is `application/x-www-form-urlencoded`, parameters (charset) allowed.
    static func isForm(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return mediaType.trimmingSpaces().lowercased() == "application/x-www-form-urlencoded"
    }

    /// The decoded fields of a form POST.
    static func fields(of request: HTTPRequest) throws(Failure) -> [(name: String, value: String)] {
        guard isForm(request.headers["Content-Type"]) else { throw .notForm }
        return try decode(request.body)
    }

    static func decode(_ bytes: some Collection<UInt8>) throws(Failure) -> [(name: String, value: String)] {
        do {
            return try URLEncodedForm.decode(bytes)
        } catch {
            throw .badEncoding(error.message)
        }
    }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var view = self
        while view.first == " " || view.first == "\t" { view.removeFirst() }
        while view.last == " " || view.last == "\t" { view.removeLast() }
        return view
    }
}
