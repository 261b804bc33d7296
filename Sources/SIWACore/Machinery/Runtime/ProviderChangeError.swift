import ScenarioModel

/// Why a runtime change (control API, timeline action) was refused. Nothing was applied.
package struct ProviderChangeError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: String, Sendable, Equatable {
        /// A named user, client, key or team does not exist (the control API answers 404).
        case notFound = "not_found"
        /// A field has a bad value (400).
        case invalid = "invalid_request"
        /// The change contradicts the current state (409), e.g. retiring the signing key.
        case conflict = "conflict"
        /// Not possible right now (503): the shared store is down, or no background thread can make a key.
        case unavailable = "unavailable"
    }

    package var kind: Kind
    /// The input field at fault (`user`, `client_id`, `credential_state`, …).
    package var field: String?
    package var message: String

    package init(_ kind: Kind, field: String? = nil, _ message: String) {
        self.kind = kind
        self.field = field
        self.message = message
    }

    /// "unknown user 'alcie' (did you mean 'alice'?)" when one of `known` is close.
    package static func unknownUser(
        _ value: String, field: String = "user", among known: [String] = []
    ) -> ProviderChangeError {
        ProviderChangeError(.notFound, field: field, Scenario.unknown("user", value, among: known))
    }

    /// "unknown client 'com.example.ap' (did you mean 'com.example.app'?)" when one of `known` is close.
    package static func unknownClient(
        _ value: String, field: String = "client_id", among known: [String] = []
    ) -> ProviderChangeError {
        ProviderChangeError(.notFound, field: field, Scenario.unknown("client", value, among: known))
    }

    /// Runs a store operation; an unreachable shared store becomes `.unavailable` (503).
    static func storing<T>(_ body: () throws(StoreUnavailable) -> T) throws(ProviderChangeError) -> T {
        do throws(StoreUnavailable) {
            return try body()
        } catch {
            throw ProviderChangeError(.unavailable, field: "store", error.description)
        }
    }

    package var description: String { field.map { "\($0): \(message)" } ?? message }
}
