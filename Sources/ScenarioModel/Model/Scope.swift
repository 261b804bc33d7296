/// Sign in with Apple's scopes: `name`, `email` and (advertised) `openid`. `profile` is not one.
package enum Scope: String, Sendable, Equatable, Hashable, CaseIterable {
    case name
    case email
    case openid

    /// Scopes that make Apple hand out user data, and therefore force `form_post`.
    package var requiresFormPost: Bool { self != .openid }
}
