/// The application side of the server: a pure function from request to response.
///
/// Called on an event-loop thread; it must not block for long (an RS256 signature, ~0.35 ms, is fine).
/// Slow behaviour (delays, dribbling) is expressed through `HTTPResponse.Delivery`, never by sleeping.
package protocol HTTPResponder: Sendable {
    /// `consuming`: the request moves into the pipeline's context instead of being copied, field by field.
    func respond(to request: consuming HTTPRequest) -> HTTPResponse
}
