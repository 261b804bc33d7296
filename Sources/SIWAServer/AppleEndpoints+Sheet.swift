import HTTP
import SIWACore
import ScenarioModel

extension AppleEndpoints {
    /// `/auth/authorize` without `login_hint` (docs/browser.md): without `account` (and more than one
    /// user) the account chooser; with it the consent sheet; with `consent=continue` the user continues
    /// with the sheet's choices (a first authorization with `name`/`email` takes `first_name`,
    /// `last_name` and `email_choice=share|hide`). An unknown account or email choice is a 400
    /// `invalid_request`, like an unknown `login_hint` (the sheet's own fields; Apple has none of them).
    func consentSheet(
        _ context: inout RequestContext, _ authorization: AuthorizationRequest,
        parameters: [(name: String, value: String)], snapshot: ProviderSnapshot
    ) -> HTTPResponse {
        func value(_ name: String) -> String? { parameters.first { $0.name == name }?.value }
        let scenario = snapshot.scenario
        let page = ConsentSheet.Context(
            appName: scenario.client(id: authorization.clientID)?.name ?? authorization.clientID,
            authorization: authorization, parameters: parameters)
        let policy = ConsentSheet.policy(for: authorization)
        guard let accountID = value("account") ?? (scenario.users.count == 1 ? scenario.users.first?.id : nil) else {
            return Responses.html(ConsentSheet.accountChooser(page, users: scenario.users), policy: policy)
        }
        guard let user = snapshot.user(id: accountID) else {
            return context.refuse(
                .invalidRequest("Unknown account: \(accountID)"), reason: "no scenario user has id '\(accountID)'")
        }
        context.user = user.id
        let groupID = scenario.consentGroupID(forClient: authorization.clientID)
        let returning: Bool
        do throws(StoreUnavailable) {
            returning = try snapshot.store.hasConsent(userID: user.id, consentGroupID: groupID)
        } catch {
            return context.refuse(.unavailable(error), log: log)
        }
        let asksChoices = !returning && authorization.scopes.contains { $0 == .name || $0 == .email }
        guard value("consent") == "continue" else {
            let relay = scenario.view(
                of: user, forClient: authorization.clientID, now: provider.clock.nowSeconds,
                emailChoice: .hide
            ).deliveredEmail
            return Responses.html(
                ConsentSheet.sheet(page, user: user, relayEmail: relay, asksChoices: asksChoices), policy: policy)
        }
        var choices = ConsentChoices()
        if asksChoices && authorization.scopes.contains(.name) {
            choices.name = PersonName(
                firstName: value("first_name") ?? user.name.firstName,
                lastName: value("last_name") ?? user.name.lastName)
        }
        if asksChoices && authorization.scopes.contains(.email) {
            if let raw = value("email_choice") {
                guard let choice = EmailChoice(rawValue: raw) else {
                    return context.refuse(.invalidRequest("Invalid email_choice: \(raw)"))
                }
                choices.email = choice
            } else {
                choices.email = user.isDeliveredEmailPrivate ? .hide : .share
            }
        }
        do {
            var response = try provider.authorize(authorization, as: user, in: snapshot, choices: choices)
            response.idToken = try tampering(response.idToken, &context, in: snapshot)
            return deliver(response.parameters, for: authorization, in: snapshot)
        } catch {
            return context.refuse(error, log: log)
        }
    }
}
