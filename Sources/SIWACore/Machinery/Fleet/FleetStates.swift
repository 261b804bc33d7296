import JSON
import ScenarioModel

/// The mock clock as the fleet shares it: the reading at a real instant, and whether it is frozen.
/// Absolute, so every replica that applies it reads the same time (replicas' system clocks are assumed
/// in step, as NTP keeps them; docs/scale-out.md).
package struct FleetClockState: Sendable, Equatable {
    /// The mock clock's reading, in milliseconds since the epoch, at `realMilliseconds`.
    package var mockMilliseconds: Int64
    /// The system clock at that moment.
    package var realMilliseconds: Int64
    package var frozen: Bool

    package init(mockMilliseconds: Int64, realMilliseconds: Int64, frozen: Bool) {
        self.mockMilliseconds = mockMilliseconds
        self.realMilliseconds = realMilliseconds
        self.frozen = frozen
    }

    /// The state of `clock` now.
    package init(of clock: any ControllableClock, real: any SIWAClock = SystemClock()) {
        self.init(
            mockMilliseconds: clock.nowMilliseconds, realMilliseconds: real.nowMilliseconds, frozen: clock.isFrozen)
    }

    /// The readings a state may hold: the control API's own range (`POST /mock/clock` refuses times
    /// outside years 1970 to 9999), so every sum below stays far inside `Int64`.
    package static let range: ClosedRange<Int64> = 0...TimeText.maximumMilliseconds

    /// Moves `clock` to this state through the control API's own operations (freeze or thaw, then set).
    /// A running clock lands on the reading plus the real time since, kept inside `range`.
    package func apply(to clock: any ControllableClock, real: any SIWAClock = SystemClock()) {
        if frozen {
            clock.setFrozen(true)
            clock.set(milliseconds: mockMilliseconds)
        } else {
            clock.setFrozen(false)
            let elapsed = Self.clamped(real.nowMilliseconds) - realMilliseconds
            clock.set(milliseconds: Self.clamped(mockMilliseconds + elapsed))
        }
    }

    static func clamped(_ milliseconds: Int64) -> Int64 {
        min(max(milliseconds, range.lowerBound), range.upperBound)
    }

    package var text: String {
        JSONValue.object(
            JSONObject([
                ("mock_ms", .int(mockMilliseconds)), ("real_ms", .int(realMilliseconds)), ("frozen", .bool(frozen)),
            ])
        ).serializedString()
    }

    /// nil when `text` is not a clock state (a newer replica's format, or damage) or holds a reading
    /// outside `range` (read from a store this replica does not trust): it is then ignored.
    package init?(text: String) {
        guard text.utf8.count <= 256, let value = try? JSONValue.parse(text), let mock = value["mock_ms"]?.intValue,
            let real = value["real_ms"]?.intValue, let frozen = value["frozen"]?.boolValue,
            Self.range.contains(mock), Self.range.contains(real)
        else { return nil }
        self.init(mockMilliseconds: mock, realMilliseconds: real, frozen: frozen)
    }
}

/// The signing key set as the fleet shares it, private keys included, so every replica signs with
/// the key a rotation made and publishes the same JWKS (at most `maximumSigningKeys` keys).
package struct FleetKeysState: Sendable, Equatable {
    package var keys: [SigningKey]

    package init(keys: [SigningKey]) { self.keys = keys }

    package var text: String {
        JSONValue.array(
            keys.map { key in
                .object(
                    JSONObject([
                        ("kid", .string(key.kid)), ("pem", .string(key.privateKeyPEM)),
                        ("published", .bool(key.published)), ("signs", .bool(key.signs)),
                    ]))
            }
        ).serializedString()
    }

    /// nil when `text` is not a key set (`replaceSigningKeys` then checks the count and every PEM).
    package init?(text: String) {
        guard let array = (try? JSONValue.parse(text))?.arrayValue else { return nil }
        var keys: [SigningKey] = []
        for entry in array {
            guard let kid = entry["kid"]?.stringValue, let pem = entry["pem"]?.stringValue,
                let published = entry["published"]?.boolValue, let signs = entry["signs"]?.boolValue
            else { return nil }
            keys.append(SigningKey(kid: kid, privateKeyPEM: pem, published: published, signs: signs))
        }
        self.init(keys: keys)
    }
}

extension AppleIdentityProvider {
    /// Replaces the whole signing key set (a rotation made at another replica), in the same swap that
    /// rebuilds `/auth/keys` as the local key changes do. Refused like them when the set is invalid or
    /// larger than both `maximumSigningKeys` and the current set (a scenario may declare more).
    package func replaceSigningKeys(_ keys: [SigningKey]) throws(ProviderChangeError) {
        try change(rebuildKeys: true) { (scenario, _) throws(ProviderChangeError) in
            if keys.count > max(Self.maximumSigningKeys, scenario.signingKeys.keys.count) {
                throw ProviderChangeError(.conflict, field: "kid", "at most \(Self.maximumSigningKeys) signing keys")
            }
            scenario.signingKeys.keys = keys
        }
    }
}
