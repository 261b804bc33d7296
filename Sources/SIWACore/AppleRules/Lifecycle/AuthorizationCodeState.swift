/// The lifecycle of an authorization code: `issued → redeemed | expired | revoked`.
///
/// A pure state machine: `handle(_:)` returns the next state or the Apple error the event causes.
package enum AuthorizationCodeState: Sendable, Equatable {
    /// Fresh. `redeem` (before expiry) → `.redeemed`; `redeem` at or after expiry → `.expired`;
    /// `expire` → `.expired`; `revoke` → `.revoked`.
    case issued
    /// Used once. Every later `redeem` fails "The code has already been used."; `revoke` → `.revoked`;
    /// `expire` keeps it `.redeemed` (reuse stays reported as reuse until the record is collected).
    case redeemed
    /// Older than its lifetime. Terminal: `redeem` fails "The code has expired or has been revoked."
    case expired
    /// Its authorization was revoked. Terminal: `redeem` fails like an expired code.
    case revoked

    package enum Event: Sendable, Equatable {
        /// A token request presents the code at `now`; `expiresAt` is the code's deadline.
        case redeem(now: Int64, expiresAt: Int64)
        case expire
        case revoke
    }

    /// The state after `event`, or the error to answer the request with (the state may still change,
    /// e.g. an issued code found expired becomes `.expired`).
    package func handle(_ event: Event) -> (next: AuthorizationCodeState, error: AppleError?) {
        switch (self, event) {
        case (.issued, .redeem(let now, let expiresAt)):
            return now < expiresAt ? (.redeemed, nil) : (.expired, .codeExpiredOrRevoked)
        case (.issued, .expire): return (.expired, nil)
        case (.issued, .revoke): return (.revoked, nil)
        case (.redeemed, .redeem): return (.redeemed, .codeAlreadyUsed)
        case (.redeemed, .expire): return (.redeemed, nil)
        case (.redeemed, .revoke): return (.revoked, nil)
        case (.expired, .redeem), (.revoked, .redeem): return (self, .codeExpiredOrRevoked)
        case (.expired, .expire), (.expired, .revoke), (.revoked, .expire), (.revoked, .revoke): return (self, nil)
        }
    }
}
