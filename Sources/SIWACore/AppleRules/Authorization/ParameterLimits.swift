/// Size caps on the parameters of Apple's endpoints (`/auth/authorize`, `/auth/token`, `/auth/revoke`,
/// `/auth/usermigrationinfo`), in UTF-8 bytes.
///
/// Apple documents no length limits. Its endpoints answer a bad parameter value with `invalid_request`
/// (TN3107, https://developer.apple.com/documentation/technotes/tn3107-resolving-sign-in-with-apple-response-errors:
/// "includes an invalid parameter value … or is otherwise malformed"), so an over-long value gets that
/// error. The caps sit far above anything Apple issues or clients send (docs/limits.md gives the
/// evidence for each) and keep every stored code and token, and every journal entry, small: a 1 MiB
/// `nonce` used to be kept in every code and token.
package enum ParameterLimits {
    /// The cap of each known parameter.
    package static let maximumBytes: [String: Int] = [
        "client_id": 256, "redirect_uri": 1024, "response_type": 64, "response_mode": 64, "scope": 256,
        "state": 1024, "nonce": 512, "login_hint": 512, "code": 512, "refresh_token": 512, "token": 512,
        "token_type_hint": 64, "grant_type": 128, "client_secret": 4096, "sub": 256, "target": 64,
        "transfer_sub": 256, "account": 512, "consent": 16, "email_choice": 16,
        // The consent sheet's name fields: a user's name fields hold at most 320 bytes (UserProfile+Limits).
        "first_name": 320, "last_name": 320,
    ]
    /// The smallest of the caps.
    static let smallestMaximum = maximumBytes.values.min() ?? 0
    /// The cap of any other parameter (ignored ones too, such as the JS SDK's `frame_id`).
    package static let defaultMaximumBytes = 4096

    /// The cap that applies to `name`.
    package static func maximumBytes(for name: String) -> Int { maximumBytes[name] ?? defaultMaximumBytes }

    /// `invalid_request` naming the first parameter longer than its cap; nil when every value fits.
    package static func check(_ parameters: [(name: String, value: String)]) -> AppleError? {
        // A value within the smallest cap fits every cap: no lookup for it.
        for (name, value) in parameters
        where value.utf8.count > smallestMaximum && value.utf8.count > maximumBytes(for: name) {
            return .invalidRequest("Parameter too long: \(String(name.prefix(64)))")
        }
        return nil
    }
}
