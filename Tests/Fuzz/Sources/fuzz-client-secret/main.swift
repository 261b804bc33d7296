// Fuzzes ClientSecretValidator with the built-in scenario: arbitrary bytes as the client_secret.
// It must never crash, and it may only accept a secret whose ES256 signature verifies with the team's
// registered key (checked here independently of the validator and its cache).
//
// Input: one prefix byte, then the secret. Prefix bits 0-1 pick the client_id (com.example.web,
// com.example.app, an unknown one, empty), bits 2-3 the clock (the seeds' issue time, 200 days later,
// the epoch, before the epoch), bit 4 re-signs: the secret's signature is replaced by a real one over
// everything before its last '.', so mutated claims reach the checks that follow a valid signature.
import FuzzDriver
import JOSE
import SIWACore
import ScenarioModel

#if canImport(Glibc)
    import Glibc
#endif

/// What every input shares: the validator (and its cache) on the built-in scenario, its clock, the signer.
enum Fixture {
    /// The published test key of scenarios/keys/AuthKey_KEY1234567.p8 (never used with Apple).
    static let testKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg4M8Vx2ZLwzS8EfTZ
        k/+nRb7w41p6faTHFjVmguKFW9WhRANCAATg9y3/GsPig1WDeOnnjwAiWPQntlsV
        vXzHZV/aUp6q8ZGKIcJTPrJVX11hzAzy4J3f3W0f+WIV/RzMcXZ9F2Rs
        -----END PRIVATE KEY-----
        """

    /// When the corpus secrets were made (`iat` 1795960788) plus 30 s.
    static let seedTimeMilliseconds: Int64 = 1_795_960_818_000
    static let clients = ["com.example.web", "com.example.app", "com.example.unknown", ""]
    static let clockChoices: [Int64] = [seedTimeMilliseconds, seedTimeMilliseconds + 200 * 86_400_000, 0, -1_000_000]

    static let clock = AdjustableClock()
    static let scenario = Scenario.builtIn
    static let keys = try! ScenarioKeys(loading: scenario)
    static let validator = ClientSecretValidator(scenario: scenario, keys: keys, clock: clock, cacheCapacity: 64)
    static let signer = try! P256PrivateKey(pem: testKeyPEM)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let prefix = data[0]
    let clientID = Fixture.clients[Int(prefix & 0x3)]
    Fixture.clock.setFrozen(true)
    Fixture.clock.set(milliseconds: Fixture.clockChoices[Int((prefix >> 2) & 0x3)])
    var secret = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    if prefix & 0x10 != 0, let dot = secret.lastIndex(of: ".") {
        let signingInput = Array(secret[..<dot].utf8)
        guard let signature = try? Fixture.signer.signES256(signingInput) else { fatalError("signing failed") }
        secret = String(secret[..<dot]) + "." + Base64URL.encode(signature)
    }
    guard let accepted = try? Fixture.validator.validate(secret, clientID: clientID) else { return 0 }

    // Accepted: the signature must verify with the registered key for the header's kid.
    guard let jws = try? JWS(compact: secret) else { fatalError("accepted a secret that does not parse") }
    guard accepted.signatureVerified, accepted.teamID == "ABCDE12345", accepted.clientID == clientID,
        let kid = jws.keyID, let key = Fixture.keys.teamKeys[accepted.teamID]?[kid], jws.isSigned(by: key)
    else { fatalError("accepted a secret whose signature does not verify: \(secret)") }
    return 0
}

exit(fuzz_driver_main(CommandLine.argc, CommandLine.unsafeArgv))
