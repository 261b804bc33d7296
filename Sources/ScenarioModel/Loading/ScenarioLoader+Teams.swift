import JOSE
import ScenarioFormat

extension ScenarioLoader {
    /// `teams: [{id, keys: [{id, pem | pem_file}], account, email_sources}]`; each PEM is parsed here
    /// so a bad one is reported at its position.
    func readTeams(_ node: Node?, _ context: LoadContext) -> [Team] {
        guard let items = context.sequence(node, at: "teams") else { return [] }
        return items.enumerated().compactMap { index, item -> Team? in
            let path = "teams[\(index)]"
            guard let map = context.mapping(item, allowed: ["id", "keys", "account", "email_sources"], at: path)
            else { return nil }
            guard let id = readRequiredString(map, "id", path: path, context) else { return nil }
            var team = Team(id: id)
            team.emailSources = readEmailSources(map, path: path, context)
            for (keyIndex, keyNode) in (context.sequence(map.optional("keys"), at: "\(path).keys") ?? []).enumerated() {
                let keyPath = "\(path).keys[\(keyIndex)]"
                guard let keyMap = context.mapping(keyNode, allowed: ["id", "pem", "pem_file"], at: keyPath),
                    let kid = readRequiredString(keyMap, "id", path: "\(keyPath).kid", context)
                else { continue }
                guard keyMap.optional("pem") != nil || keyMap.optional("pem_file") != nil else {
                    context.report(keyNode, "missing required key 'pem' (or 'pem_file')")
                    continue
                }
                guard let pem = readPEM(keyMap, path: "\(keyPath).pem", context) else { continue }
                do throws(JOSEError) {
                    if checksKeyMaterial { _ = try P256PublicKey(pem: pem) }
                } catch {
                    context.report(
                        context.node(forPath: "\(keyPath).pem"),
                        "key '\(kid)': not a P-256 public key PEM (\(error.message))")
                    continue
                }
                team.clientSecretKeys.append(ClientSecretKey(kid: kid, publicKeyPEM: pem))
            }
            return team
        }
    }

    /// `signing_keys: [{kid, pem | pem_file, signs, published}]` or `{count: N}` (generated, slow).
    func readSigningKeys(_ node: Node?, _ context: LoadContext) -> SigningKeySet {
        guard let node else { return Scenario.builtIn.signingKeys }
        context.note("signing_keys", node)
        if case .mapping = node.kind {
            guard let map = context.mapping(node, allowed: ["count"]) else { return SigningKeySet() }
            guard let count = context.read(map.optional("count"), { node throws(ScenarioDiagnostic) in try node.int() })
            else {
                context.report(node, "missing required key 'count'")
                return SigningKeySet()
            }
            guard (1...10).contains(count) else {
                context.report(map.optional("count")!, "count must be between 1 and 10")
                return SigningKeySet()
            }
            let kids = [
                "SIWAKEY001", "SIWAKEY002", "SIWAKEY003", "SIWAKEY004", "SIWAKEY005", "SIWAKEY006", "SIWAKEY007",
                "SIWAKEY008", "SIWAKEY009", "SIWAKEY010",
            ]
            return SigningKeySet(
                keys: (0..<Int(count)).map { index in
                    SigningKey(
                        kid: kids[index], privateKeyPEM: generatedPEM(kid: kids[index], node, context), published: true,
                        signs: index == 0)
                })
        }
        guard let items = context.sequence(node, at: "signing_keys") else { return SigningKeySet() }
        let keys: [SigningKey] = items.enumerated().compactMap { index, item -> SigningKey? in
            let path = "signing_keys[\(index)]"
            guard let map = context.mapping(item, allowed: ["kid", "pem", "pem_file", "signs", "published"], at: path),
                let kid = readRequiredString(map, "kid", path: "\(path).kid", context)
            else { return nil }
            let signs =
                context.read(map.optional("signs"), { node throws(ScenarioDiagnostic) in try node.bool() }) ?? false
            let published =
                context.read(map.optional("published"), { node throws(ScenarioDiagnostic) in try node.bool() }) ?? true
            var pem: String
            if map.optional("pem") == nil && map.optional("pem_file") == nil {
                pem = generatedPEM(kid: kid, item, context)
            } else {
                guard let read = readPEM(map, path: "\(path).pem", context) else { return nil }
                do throws(JOSEError) {
                    if checksKeyMaterial { _ = try RSAPrivateKey(pem: read) }
                } catch {
                    context.report(
                        context.node(forPath: "\(path).pem"),
                        "key '\(kid)': not an RSA private key PEM (\(error.message))")
                    return nil
                }
                pem = read
            }
            return SigningKey(kid: kid, privateKeyPEM: pem, published: published, signs: signs)
        }
        return SigningKeySet(keys: keys)
    }

    /// A fresh RSA-2048 key for a key without a PEM: from `keySupply` when set, else generated here
    /// (slow: 70–470 ms); "" when generation is off (`check`). More than `maximumGeneratedKeys` in one
    /// scenario, or more than the supply has ready, is reported at `node`.
    func generatedPEM(kid: String, _ node: Node, _ context: LoadContext) -> String {
        context.generatedKeys += 1
        guard context.generatedKeys <= Self.maximumGeneratedKeys else {
            context.report(
                node,
                "key '\(kid)': at most \(Self.maximumGeneratedKeys) signing keys may be generated per scenario; "
                    + "give the others a 'pem'")
            return ""
        }
        guard generateMissingKeys else { return "" }
        if let keySupply {
            guard let pem = keySupply.take(makingOneIfNoneReady: keySupplyMayMake) else {
                context.report(
                    node,
                    "key '\(kid)' has no PEM and no pre-generated key is ready (a scenario sent over HTTP may use "
                        + "at most \(keySupply.capacity), made in the background); give it a 'pem' or retry shortly")
                return ""
            }
            return pem
        }
        note("signing key '\(kid)' has no PEM: generating an RSA-2048 key (slow, and different on every run)")
        guard let key = try? RSAPrivateKey.generate(bits: 2048) else { return "" }
        return Self.trimmed(key.pemPKCS8())
    }

    /// A required string key, recorded at `path`.
    func readRequiredString(_ map: MappingReader, _ key: String, path: String, _ context: LoadContext) -> String? {
        guard let node = map.optional(key) else {
            context.report(map.node, "missing required key '\(key)'")
            return nil
        }
        return context.read(node, at: path) { node throws(ScenarioDiagnostic) in try node.string() }
    }
}
