import SIWACore
import ScenarioModel

extension AppleEndpoints {
    /// `idToken` as the firing fault rule's `tamper:` case (docs/rp-check.md), or unchanged when no rule
    /// asks for one or the answer carries no id_token; the case is noted for the journal.
    /// - Throws: `.internal` when the token could not be re-signed.
    func tampering(
        _ idToken: String?, _ context: inout RequestContext, in snapshot: ProviderSnapshot
    ) throws(EndpointFailure) -> String? {
        guard let tamper = context.tamper, let idToken else { return idToken }
        do {
            let tampered = try snapshot.tamperer.idToken(idToken, as: tamper)
            context.tampered = tamper
            return tampered
        } catch {
            throw .internal("tampering (\(tamper.name)) failed: \(error.message)")
        }
    }
}
