import HTTP
import SIWACore

/// Turns one exchange into a `JournalEntry` from what the pipeline learned (`RequestContext`):
/// selected parameters from the one decoded form, secrets as fingerprints, the client and user, the
/// outcome and the reason of a refusal. Nothing is parsed again here.
struct JournalRecorder: Sendable {
    let provider: AppleIdentityProvider
    let journal: RequestJournal

    /// Parameters shown as they are.
    static let plainParameters: Set<String> = [
        "client_id", "grant_type", "response_type", "response_mode", "scope", "redirect_uri", "login_hint", "state",
        "nonce", "token_type_hint", "target", "sub", "user", "cancel", "type",
    ]
    /// Parameters shown only as fingerprints (`SecretFingerprint`).
    static let secretParameters: Set<String> = [
        "code", "refresh_token", "token", "client_secret", "id_token", "transfer_sub", "access_token",
    ]

    func record(_ context: RequestContext, status: HTTPStatus) {
        let request = context.request
        // The dashboard polls every second; its reads (marked by its header) stay out of the journal, so
        // watching the journal does not evict what it shows, and so do its page, script, style sheet and
        // icon (`RouteFacts.journaled`, docs/browser.md). Its changes are journaled like any call.
        if !context.facts.journaled
            || (request.method == .get || request.method == .head) && context.facts.surface == .control
                && request.headers[AdminAccess.proofHeader] != nil
        {
            return
        }
        var shown: [(name: String, value: String)] = []
        for (name, value) in context.form.all {
            if Self.plainParameters.contains(name) {
                shown.append((name, value))
            } else if Self.secretParameters.contains(name) {
                shown.append((name, SecretFingerprint.of(value)))
            }
        }
        if let object = context.parsedObject {
            for key in ["client_id", "user", "type"] {
                if let value = object[key]?.stringValue { shown.append((key, value)) }
            }
        }
        if context.user == nil, context.facts.surface == .apple,
            let bearer = request.headers.bearerToken
        {
            shown.append(("authorization", SecretFingerprint.of(String(bearer))))
        }
        if let tampered = context.tampered { shown.append(("tamper", tampered.name)) }
        let entry = JournalEntry(
            sequence: 0, kind: "request", method: request.method.rawValue, path: request.path,
            parameters: shown, clientID: context.clientID, user: context.user,
            outcome: context.outcome ?? "ok", status: status.code,
            timeMilliseconds: provider.clock.nowMilliseconds, reason: context.reason)
        journal.append(consume entry)
    }
}
