import HTTP

/// Builds requests for the Apple endpoints.
package enum RequestBuilder {
    package static func get(_ path: String, query: [(String, String)] = []) -> HTTPRequest {
        let target = query.isEmpty ? path : path + "?" + URLEncodedForm.encode(query)
        return HTTPRequest(method: "GET", target: target, headers: HTTPHeaders([("Host", "127.0.0.1")]))
    }

    /// A form POST (`application/x-www-form-urlencoded`).
    package static func form(
        _ path: String, _ fields: [(String, String)], contentType: String = "application/x-www-form-urlencoded"
    ) -> HTTPRequest {
        HTTPRequest(
            method: "POST", target: path, headers: HTTPHeaders([("Host", "127.0.0.1"), ("Content-Type", contentType)]),
            body: Array(URLEncodedForm.encode(fields).utf8))
    }

    /// A POST with an arbitrary body and content type (e.g. JSON, to check Apple's error).
    package static func post(_ path: String, body: String, contentType: String?) -> HTTPRequest {
        var headers = HTTPHeaders([("Host", "127.0.0.1")])
        if let contentType { headers.add("Content-Type", contentType) }
        return HTTPRequest(method: "POST", target: path, headers: headers, body: Array(body.utf8))
    }

    /// `GET /auth/authorize` for the built-in web client.
    package static func authorize(
        clientID: String = TestKeys.webClientID, redirectURI: String = TestKeys.redirectURI,
        responseType: String = "code id_token", scope: String? = "name email", responseMode: String? = "form_post",
        state: String? = "st-123", nonce: String? = "n-456", extra: [(String, String)] = []
    ) -> HTTPRequest {
        var query: [(String, String)] = [
            ("client_id", clientID), ("redirect_uri", redirectURI), ("response_type", responseType),
        ]
        if let scope { query.append(("scope", scope)) }
        if let responseMode { query.append(("response_mode", responseMode)) }
        if let state { query.append(("state", state)) }
        if let nonce { query.append(("nonce", nonce)) }
        return get("/auth/authorize", query: query + extra)
    }
}
