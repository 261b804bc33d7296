import SIWACore
import SIWAServer
import ScenarioModel

/// A fault rule and how often it matched and fired (`GET /mock/faults`).
public struct FaultInfo: Sendable, Equatable {
    public var id: String
    public var isEnabled: Bool
    /// Requests the rule matched.
    public var matched: Int
    /// Times it fired (answered with its fault).
    public var fired: Int
}

/// Faults on Apple's endpoints (`/mock/faults`, docs/scenarios.md "faults"): a 503 from `/auth/token`,
/// a slow `/auth/keys`, a closed connection, Apple's error bodies — and the hostile Apple
/// (docs/rp-check.md): `{tamper: oidcc-client-test-invalid-aud, times: 1}` makes the next id_token
/// (token endpoint, authorize, ``authorize(user:client:scopes:nonce:state:)``) that case.
extension AppleIDMock {
    /// Adds a rule written as in a scenario's `faults:` list (YAML or JSON), e.g.
    /// `{match: /auth/token, times: 1, status: 503}`.
    /// - Returns: the rule's id (its `id:`, else `fault-N`).
    /// - Throws: ``AppleIDMockError`` `.invalid` with every problem as `body:line:column: message`, or
    ///   `.conflict` for a duplicate id.
    @discardableResult
    public func addFault(_ rule: String) throws(AppleIDMockError) -> String {
        let faults = host.mock.faults
        let parsed: FaultRule
        do {
            parsed = try FaultsEndpoints.rule(from: rule, file: "body", provider: provider, faults: faults)
        } catch {
            throw AppleIDMockError(
                .invalid, field: "rule", error.diagnostics.map(\.description).joined(separator: "; "))
        }
        try mapped { () throws(ProviderChangeError) in try faults.add(parsed) }
        return parsed.id
    }

    /// Removes the rule `id`.
    /// - Throws: ``AppleIDMockError`` `.notFound` for an unknown id.
    public func removeFault(_ id: String) throws(AppleIDMockError) {
        guard host.mock.faults.remove(id: id) else {
            throw AppleIDMockError(.notFound, field: "id", "unknown fault '\(id)'")
        }
    }

    /// Every rule with its counters.
    public var faults: [FaultInfo] {
        host.mock.faults.statuses.map {
            FaultInfo(id: $0.rule.id, isEnabled: $0.rule.enabled, matched: $0.matched, fired: $0.fired)
        }
    }
}
