/// Size caps on users changed at runtime (control API, timeline), so the user table has a byte bound
/// (docs/limits.md). Scenario files are bounded by their own size (4 MiB).
extension UserProfile {
    /// The most users a provider holds after runtime additions.
    package static let maximumCount = 100_000
    /// The longest text field (an email address is at most 254 bytes, RFC 5321 §4.5.3.1.3; `sub` 44).
    package static let maximumFieldBytes = 320
    /// The most per-team `sub` overrides.
    package static let maximumTeamSubs = 16

    /// The first field over its cap (its control-API name), or nil when the user fits.
    package var oversizedField: String? {
        let fields: [(String, String?)] = [
            ("id", id), ("sub", sub), ("email", email), ("relay_email", relayEmail),
            ("first_name", name.firstName), ("last_name", name.lastName), ("transfer_sub", transferSub),
        ]
        for (field, value) in fields where (value?.utf8.count ?? 0) > Self.maximumFieldBytes { return field }
        if teamSubs.count > Self.maximumTeamSubs
            || teamSubs.contains(where: { $0.key.utf8.count > 64 || $0.value.utf8.count > Self.maximumFieldBytes })
        {
            return "team_subs"
        }
        return nil
    }

    /// The first address field that is not an RFC 5322 addr-spec (`AddrSpec`): its control-API name and
    /// why, or nil. The relay writes both into mail header fields (`To:`, `Received: … for <…>`).
    package var malformedAddress: (field: String, problem: String)? {
        for (field, value) in [("email", email), ("relay_email", relayEmail)] {
            if let value, let problem = AddrSpec.problem(value) {
                return (field, "is not an email address (RFC 5322 addr-spec): it \(problem)")
            }
        }
        return nil
    }
}
