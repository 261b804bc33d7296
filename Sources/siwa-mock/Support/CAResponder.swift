import HTTPServer

/// Serves the local CA certificate at `GET /mock/tls/ca.pem` (so a CI job can fetch it with curl from
/// a service container) and forwards everything else.
struct CAResponder: HTTPResponder {
    static let path = "/mock/tls/ca.pem"
    let certificatePEM: String
    let next: any HTTPResponder

    func respond(to request: HTTPRequest) -> HTTPResponse {
        guard request.path == Self.path else { return next.respond(to: request) }
        guard request.method == "GET" || request.method == "HEAD" else {
            return HTTPResponse(
                status: 405, headers: HTTPHeaders([("Allow", "GET, HEAD"), ("Content-Type", "text/plain")]),
                body: Array("method not allowed\n".utf8))
        }
        return HTTPResponse(
            status: 200,
            headers: HTTPHeaders([("Content-Type", "application/x-pem-file"), ("Cache-Control", "no-store")]),
            body: Array(certificatePEM.utf8))
    }
}
