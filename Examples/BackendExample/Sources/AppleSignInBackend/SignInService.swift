import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The backend's side of Sign in with Apple from a native app: the app posts the credential's
/// identity token and authorization code; the backend verifies the token, redeems the code at
/// Apple's `/auth/token`, and creates or finds the account keyed by the user's `sub`.
public actor SignInService {
    /// A user account of this backend.
    public struct Account: Sendable, Equatable {
        /// The Apple user id (`sub`); nil for a password account not upgraded yet.
        public var appleSubject: String?
        /// The password account's user name, if the account started with a password.
        public var passwordUser: String?
        public var email: String?
        /// Only known from the first sign-in (Apple never sends the name again).
        public var displayName: String?
        /// Kept to revoke the authorization when the user deletes their account.
        public var refreshToken: String?
    }

    private let configuration: AppleConfiguration
    private let verifier: TokenVerifier
    private let session: URLSession
    /// Accounts by Apple `sub`.
    private var accounts: [String: Account] = [:]
    /// Password accounts by user name: (password, account); upgraded ones keep their password login
    /// only until the upgrade (the system deletes the saved password then).
    private var passwordAccounts: [String: (password: String, account: Account)] = [:]

    public init(
        configuration: AppleConfiguration, session: URLSession = .shared,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.configuration = configuration
        self.session = session
        self.verifier = TokenVerifier(configuration: configuration, session: session, now: now)
    }

    /// Signs the app's user in: verifies `identityToken` (with the `nonce` the app generated), redeems
    /// `authorizationCode`, and returns the account (created on the first sign-in with the name and
    /// email the app received).
    public func signIn(
        identityToken: String, authorizationCode: String, nonce: String?, fullName: PersonNameComponents? = nil
    ) async throws(SignInError) -> Account {
        let claims = try await verifier.verify(identityToken, nonce: nonce)
        let tokens = try await post(
            configuration.tokenURL,
            [
                ("grant_type", "authorization_code"), ("code", authorizationCode),
                ("client_id", configuration.bundleID), ("client_secret", try secret()),
            ])
        guard let redeemed = tokens["id_token"] as? String else { throw .appleUnavailable("no id_token") }
        guard try await verifier.verify(redeemed, nonce: nil).subject == claims.subject else { throw .subjectMismatch }
        var account =
            accounts[claims.subject]
            ?? Account(appleSubject: claims.subject, passwordUser: nil, email: claims.email, displayName: nil)
        if account.displayName == nil, let fullName {
            account.displayName = [fullName.givenName, fullName.familyName].compactMap { $0 }.joined(separator: " ")
        }
        account.refreshToken = tokens["refresh_token"] as? String ?? account.refreshToken
        accounts[claims.subject] = account
        return account
    }

    /// The user deleted their account here: revoke the app's authorization at Apple.
    public func deleteAccount(appleSubject: String) async throws(SignInError) {
        guard let account = accounts.removeValue(forKey: appleSubject), let token = account.refreshToken else { return }
        _ = try await post(
            configuration.revokeURL,
            [
                ("client_id", configuration.bundleID), ("client_secret", try secret()), ("token", token),
                ("token_type_hint", "refresh_token"),
            ])
    }

    public func account(appleSubject: String) -> Account? { accounts[appleSubject] }

    /// A classic account with a password (what users had before Sign in with Apple).
    public func registerPasswordAccount(user: String, password: String) {
        passwordAccounts[user] = (password, Account(passwordUser: user, email: user))
    }

    /// Signs in with a password (e.g. the `ASPasswordCredential` an existing-account flow offered).
    public func signIn(user: String, password: String) throws(SignInError) -> Account {
        guard let entry = passwordAccounts[user], entry.password == password else { throw .wrongPassword }
        return entry.account
    }

    /// The account-upgrade extension converts the password account to Sign in with Apple: the password
    /// proves the account, the Apple credential (no name, only the email) is verified and redeemed, and
    /// the account is linked to the `sub` so later Apple sign-ins find it. The password login ends.
    public func upgradeToSignInWithApple(
        user: String, password: String, identityToken: String, authorizationCode: String, nonce: String?
    ) async throws(SignInError) -> Account {
        var account = try signIn(user: user, password: password)
        let claims = try await verifier.verify(identityToken, nonce: nonce)
        guard accounts[claims.subject] == nil else { throw .alreadyLinked }
        let tokens = try await post(
            configuration.tokenURL,
            [
                ("grant_type", "authorization_code"), ("code", authorizationCode),
                ("client_id", configuration.bundleID), ("client_secret", try secret()),
            ])
        account.appleSubject = claims.subject
        account.email = claims.email ?? account.email
        account.refreshToken = tokens["refresh_token"] as? String
        accounts[claims.subject] = account
        passwordAccounts[user] = nil
        return account
    }

    private func secret() throws(SignInError) -> String {
        do {
            return try configuration.clientSecret()
        } catch {
            throw .appleUnavailable("cannot make a client secret: \(error)")
        }
    }

    /// A form POST to Apple; the JSON answer, or Apple's error.
    private func post(_ url: URL, _ fields: [(String, String)]) async throws(SignInError) -> [String: Any] {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
        request.httpBody = Data(body.joined(separator: "&").utf8)
        let data: Data
        let status: Int
        do {
            let (bytes, response) = try await session.data(for: request)
            data = bytes
            status = (response as? HTTPURLResponse)?.statusCode ?? 0
        } catch {
            throw .appleUnavailable("\(url.path): \(error)")
        }
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        switch status {
        case 200: return json
        case 400..<500: throw .appleRefused(status: status, error: json["error"] as? String ?? "")
        default: throw .appleUnavailable("\(url.path) answered \(status)")
        }
    }
}
