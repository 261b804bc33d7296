import EventLoop
import HTTP
import JSON

/// The "now" that `verify` judges `exp` and `iat` by: the mock's clock when the URL is a mock
/// (`GET /mock/clock`), else this machine's. A token minted after `POST /mock/clock {"advance":"2d"}`
/// carries the mock's time, so judging it by the wall clock would call a fresh token "from the future"
/// and an expired one valid (docs/troubleshooting.md, "The mock clock and your backend").
struct JudgingClock {
    var now: Int64
    var description: String

    /// Asks `base` for its clock (through `send`: a caller's bounds on time and size; by default 5 s
    /// and 64 KiB); falls back to the wall clock and says why.
    static func read(
        from base: String, adminToken: String?,
        send: (HTTPClientRequest, String, Int) throws(ClientError) -> HTTPClientResponse = {
            (request, url, timeout) throws(ClientError) in
            try HTTPClient.send(request, to: url, timeoutMilliseconds: timeout, maximumBodyBytes: 64 * 1024)
        }
    ) -> JudgingClock {
        var headers = HTTPHeaders()
        if let adminToken { headers.add("Authorization", "Bearer \(adminToken)") }
        let reason: String
        do {
            let response = try send(
                HTTPClientRequest(method: "GET", target: "/mock/clock", headers: headers), base + "/mock/clock", 5000)
            if response.status == 200, let json = try? JSONValue.parse(response.body),
                let seconds = json["epoch_seconds"]?.intValue
            {
                let text = json["now"]?.stringValue ?? String(seconds)
                let frozen = json["frozen"]?.boolValue == true ? ", frozen" : ""
                return JudgingClock(now: seconds, description: "the mock's clock, \(text)\(frozen)")
            }
            reason = response.status == 401 ? "needs --admin-token" : "answered \(response.status)"
        } catch {
            reason = "unreachable"
        }
        return JudgingClock(now: WallClock.now(), description: "this machine's clock (\(base)/mock/clock \(reason))")
    }
}
