/// Why a sign-in failed.
public enum SignInError: Error, Sendable, Equatable {
    /// The identity token did not check out.
    case invalidToken(String)
    /// Apple answered an error (`invalid_grant`: the code expired, was used or revoked; `invalid_client`:
    /// the client secret is wrong).
    case appleRefused(status: Int, error: String)
    /// Apple could not be reached or answered something unexpected (5xx, not JSON).
    case appleUnavailable(String)
    /// The redeemed token names another user than the app's credential.
    case subjectMismatch
    /// No password account with that user name and password.
    case wrongPassword
    /// The Apple ID is already linked to another account.
    case alreadyLinked
}
