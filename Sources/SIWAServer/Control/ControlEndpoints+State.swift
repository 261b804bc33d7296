import HTTP
import JSON
import SIWACore
import ScenarioFormat

/// Clock, keys and scenario replacement.
extension ControlEndpoints {
    func clockState() -> HTTPResponse {
        let now = provider.clock.nowMilliseconds
        return Self.ok(
            JSONObject([
                ("now", .string(TimeText.rfc3339(milliseconds: now))), ("epoch_seconds", .int(now / 1000)),
                ("epoch_milliseconds", .int(now)), ("frozen", .bool(provider.controllableClock?.isFrozen ?? false)),
                ("controllable", .bool(provider.controllableClock != nil)),
            ]))
    }

    /// The largest `advance` in seconds either way (400 years). A range check, not `abs`, which traps
    /// on `Int64.min`.
    static let maximumAdvanceSeconds: Int64 = 400 * 365 * 86400

    /// `POST /mock/clock` with exactly one of `{advance: "6m"|seconds}`, `{set: RFC3339}`, `{freeze: bool}`.
    func changeClock(_ context: inout RequestContext) throws(ControlFailure) -> HTTPResponse {
        let body = try context.json(required: true)
        try body.allowOnly(["advance", "set", "freeze"])
        guard body.object.count == 1 else {
            throw .invalid("body", "give exactly one of advance, set, freeze")
        }
        guard let clock = provider.controllableClock else {
            throw ControlFailure(
                status: .conflict, error: "conflict", field: "clock", "this server's clock cannot be changed")
        }
        let now = clock.nowMilliseconds
        let range: ClosedRange<Int64> = 0...TimeText.maximumMilliseconds
        if let value = body.object["advance"] {
            var milliseconds: Int64?
            if let text = value.stringValue {
                do throws(TimeSyntax.Failure) {
                    milliseconds = try TimeSyntax.durationMilliseconds(text, sign: .signed)
                } catch {
                    throw .invalid("advance", "\(error.message), or a JSON number of seconds")
                }
            } else if let seconds = try? body.integer("advance"),
                (-Self.maximumAdvanceSeconds...Self.maximumAdvanceSeconds).contains(seconds)
            {
                milliseconds = seconds * 1000
            }
            guard let milliseconds else {
                throw .invalid("advance", "must be a duration like \"90s\", \"6m\", \"-2d\" or a number of seconds")
            }
            let (target, overflow) = now.addingReportingOverflow(milliseconds)
            guard !overflow, range.contains(target) else {
                throw .invalid("advance", "would move the clock outside years 1970 to 9999")
            }
            clock.advance(milliseconds: milliseconds)
        } else if body.object["set"] != nil {
            guard let text = try body.string("set") else {
                throw .invalid("set", "must be an RFC 3339 time such as \"2026-01-01T00:00:00Z\"")
            }
            let milliseconds: Int64
            do throws(TimeSyntax.Failure) {
                milliseconds = try TimeSyntax.timestamp(text).millisecondsSinceEpoch
            } catch {
                throw .invalid("set", error.message)
            }
            guard range.contains(milliseconds) else { throw .invalid("set", "must lie in years 1970 to 9999") }
            clock.set(milliseconds: milliseconds)
        } else if let freeze = try body.bool("freeze") {
            clock.setFrozen(freeze)
        }
        return clockState()
    }

    func keyList() -> HTTPResponse {
        let snapshot = provider.snapshot
        let keys = snapshot.scenario.signingKeys.keys.map { key in
            JSONValue.object(
                JSONObject([
                    ("kid", .string(key.kid)), ("published", .bool(key.published)), ("signs", .bool(key.signs)),
                ]))
        }
        return Self.ok(JSONObject([("signing_kid", .string(snapshot.keys.signingKID)), ("keys", .array(keys))]))
    }

    /// `POST /mock/keys/rotate {kid?}`: a new RSA key signs from now on; the old one stays published. Runs
    /// off the event loop (`RouteFacts.Lane.backgroundWork`): with no pre-generated key ready it
    /// waits for one key generation and answers 200.
    func rotateKeys(_ context: inout RequestContext) throws(ControlFailure) -> HTTPResponse {
        let body = try context.json()
        try body.allowOnly(["kid"])
        let kid = try body.string("kid")
        if let kid, kid.isEmpty || kid.count > 64 { throw .invalid("kid", "must be 1 to 64 characters") }
        do throws(ProviderChangeError) {
            try provider.rotateSigningKey(kid: kid, offLoop: context.offLoop)
        } catch {
            throw ControlFailure(error)
        }
        return keyList()
    }

    /// `POST /mock/keys/{kid}/publish|retire|sign`.
    func changeKey(kid: String, action: String) throws(ControlFailure) -> HTTPResponse {
        do throws(ProviderChangeError) {
            switch action {
            case "publish": try provider.publishKey(kid: kid)
            case "retire": try provider.retireKey(kid: kid)
            default: try provider.signWithKey(kid: kid)
            }
        } catch {
            throw ControlFailure(error)
        }
        return keyList()
    }

    /// `PUT /mock/scenario` (scenario text): replaced atomically, or 400 with every positioned error
    /// and the old scenario untouched; 501 when this build has no scenario loader.
    func replaceScenario(_ context: inout RequestContext) throws(ControlFailure) -> HTTPResponse {
        guard let scenarioLoader else {
            throw ControlFailure(
                status: .notImplemented, error: "not_implemented", field: nil, "this build has no scenario loader")
        }
        switch scenarioLoader(context.request.body, context.offLoop) {
        case .failure(let failure):
            let errors = JSONValue.array(failure.errors.map { .string($0) })
            return Self.ok(
                JSONObject([
                    ("error", .string("invalid_scenario")),
                    ("message", .string(failure.errors.first ?? "invalid scenario")),
                    ("errors", errors),
                ]), status: .badRequest)
        case .success(let scenario):
            try requireStore()
            do throws(ProviderChangeError) {
                try provider.replaceScenario(scenario)
            } catch {
                return Self.ok(
                    JSONObject([
                        ("error", .string("invalid_scenario")), ("message", .string(error.description)),
                        ("errors", .array([.string(error.description)])),
                    ]), status: .badRequest)
            }
            activeScenario.replace(
                with: .init(
                    source: "PUT /mock/scenario", name: scenario.name,
                    text: String(decoding: context.request.body, as: UTF8.self),
                    loadedAtMilliseconds: provider.clock.nowMilliseconds))
            return Self.ok(JSONObject([("status", .string("replaced")), ("name", .string(scenario.name))]))
        }
    }
}
