import Locking
import RESP
import SIWACore
import ScenarioModel

/// Consents, codes and tokens in Redis, shared by every replica that uses the same Redis and key
/// prefix (docs/scale-out.md). Each operation is one round trip: a Lua script for anything that reads
/// and writes (`RedisScripts`), a pipeline for plain reads. Apple's expiry is decided by the mock clock
/// (`now` from the caller); Redis TTLs only collect entries, an hour after they expired in real time.
package final class RedisGrantStore: GrantStore {
    package let client: RedisClient
    /// Every key starts with it: `siwa:<scenario name>:` unless told otherwise.
    package let prefix: String
    let identifiers: IdentifierGenerator
    let codeLifetime: Int64
    let accessTokenLifetime: Int64
    /// Script name → SHA1 as Redis reported it (`SCRIPT LOAD`); reloaded after `NOSCRIPT`.
    let scriptHashes = Lock<[String: String]>([:])

    /// Real seconds an entry outlives its mock-clock deadline before Redis drops it.
    static let collectionGraceSeconds: Int64 = 3_600

    package init(client: RedisClient, prefix: String, settings: ScenarioSettings, identifiers: IdentifierGenerator) {
        self.client = client
        self.prefix = prefix
        self.identifiers = identifiers
        self.codeLifetime = settings.codeLifetimeSeconds
        self.accessTokenLifetime = settings.accessTokenLifetimeSeconds
    }

    /// The default prefix of a scenario: `siwa:<name>:`, the name with every byte other than a letter,
    /// digit, `.`, `_` or `-` written `%XX`. The escaped name holds no `:`, so its first `:` ends it and
    /// no scenario's prefix is the start of another's (`team` and `team:b` were: a reset of `team`
    /// deleted `team:b`'s keys); nor does it hold glob characters.
    package static func prefix(for scenario: Scenario) -> String { prefix(forName: scenario.name) }

    package static func prefix(forName name: String) -> String {
        var escaped = ""
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                escaped += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return "siwa:\(escaped):"
    }

    package var unavailableReason: String? { client.unavailableReason }

    // MARK: - Plumbing

    /// Runs a script by hash, loading it first (or again, after a Redis restart emptied the cache).
    func run(_ name: String, _ script: String, _ arguments: [String]) throws(StoreUnavailable) -> RESPValue {
        var loadedNow = false
        while true {
            let sha: String
            if let known = scriptHashes.withLock({ $0[name] }) {
                sha = known
            } else {
                let reply = try call(["SCRIPT", "LOAD", script])
                guard let loaded = reply.string else { throw StoreUnavailable("SCRIPT LOAD answered \(reply)") }
                scriptHashes.withLock { $0[name] = loaded }
                sha = loaded
                loadedNow = true
            }
            let reply = try call(["EVALSHA", sha, "0"] + arguments)
            if case .error(let message) = reply, message.hasPrefix("NOSCRIPT"), !loadedNow {
                scriptHashes.withLock { $0[name] = nil }
                continue
            }
            if case .error(let message) = reply { throw StoreUnavailable("script \(name) failed: \(message)") }
            return reply
        }
    }

    func call(_ command: [String]) throws(StoreUnavailable) -> RESPValue {
        try pipeline([command])[0]
    }

    func pipeline(_ commands: [[String]]) throws(StoreUnavailable) -> [RESPValue] {
        do {
            return try client.send(commands.map { $0.map { Array($0.utf8) } })
        } catch {
            throw StoreUnavailable(error.message)
        }
    }

    func key(_ kind: String, _ rest: String) -> String { prefix + kind + ":" + rest }

    static func pair(_ user: String, _ group: String) -> String { "\(user.utf8.count):\(user):\(group)" }

    /// A hash reply (`HGETALL`, or the fields after a script's status) as a dictionary.
    static func fields(_ values: ArraySlice<RESPValue>) -> [String: String] {
        var fields: [String: String] = [:]
        var index = values.startIndex
        while index + 1 < values.endIndex {
            if let name = values[index].string, let value = values[index + 1].string { fields[name] = value }
            index += 2
        }
        return fields
    }

    /// The grant kept in a code or token hash.
    static func grant(_ fields: [String: String]) -> AuthorizationGrant? {
        guard let client = fields["cl"], let user = fields["u"], let group = fields["g"] else { return nil }
        let scopes = (fields["sc"] ?? "").split(separator: " ").compactMap { Scope(rawValue: String($0)) }
        return AuthorizationGrant(
            clientID: client, redirectURI: fields["ru"], userID: user, consentGroupID: group, scopes: scopes,
            nonce: fields["n"], authTime: Int64(fields["at"] ?? "") ?? 0, isFirstAuthorization: fields["f"] == "1",
            realUserStatus: fields["rs"].flatMap { Int($0) }.flatMap { RealUserStatus(rawValue: $0) },
            emailChoice: fields["ec"].flatMap { EmailChoice(rawValue: $0) })
    }

    static func scopeText(_ scopes: [Scope]) -> String { scopes.map(\.rawValue).joined(separator: " ") }

    /// Seconds Redis keeps an entry that expires `lifetime` seconds from now on the mock clock.
    static func ttl(_ lifetime: Int64) -> String { String(max(1, lifetime) + collectionGraceSeconds) }
}
