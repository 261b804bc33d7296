import Foundation
import JOSE
import JSON
import Testing

/// The non-serving subcommands, run as a user runs them.
@Suite struct CLICommandTests {
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let testKey = repoRoot + "/scenarios/keys/AuthKey_KEY1234567.p8"

    @Test func versionAndHelp() throws {
        let version = try MockProcess.run(["--version"])
        #expect(version.status == 0)
        // `siwa-mock 0.2.0 (abc1234)`: the commit the build was given (Package.swift, SIWA_MOCK_COMMIT; .ci/run
        // sets it for every build), else `(unknown commit)`.
        let line = version.stdout.trimmingCharacters(in: .newlines)
        #expect(
            line.wholeMatch(of: /siwa-mock [0-9]+\.[0-9]+\.[0-9]+ \(([0-9a-f]{7,40}|unknown commit)\)/) != nil,
            "\(line)")
        if let commit = ProcessInfo.processInfo.environment["SIWA_MOCK_COMMIT"], !commit.isEmpty {
            #expect(line.hasSuffix(" (\(commit.lowercased()))"), "built with SIWA_MOCK_COMMIT=\(commit): \(line)")
        }
        for command in ["serve", "client-secret", "keygen"] {
            let help = try MockProcess.run([command, "--help"])
            #expect(help.status == 0, "\(command) --help")
            #expect(help.stdout.contains("USAGE: siwa-mock \(command)"))
        }
    }

    @Test func usageErrorsExit64WithAHint() throws {
        let result = try MockProcess.run(["serve", "--prot", "1"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("Unknown option '--prot'. Did you mean '--port'?"))
        #expect(result.stderr.contains("See 'siwa-mock serve --help'"))
        let env = try MockProcess.run([], environment: ["SIWA_MOCK_PORT": "not-a-port"])
        #expect(env.status == 64)
        #expect(env.stderr.contains("SIWA_MOCK_PORT must be an integer"))
        let subcommand = try MockProcess.run(["sevre"])
        #expect(subcommand.status == 64)
        #expect(subcommand.stderr.contains("Did you mean 'serve'?"))
    }

    @Test func clientSecretIsAVerifiableES256JWT() throws {
        let result = try MockProcess.run([
            "client-secret", "--team-id", "ABCDE12345", "--client-id", "com.example.web", "--key-id", "KEY1234567",
            "--key", Self.testKey, "--expires-in", "600",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let token = try JWS(compact: result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(token.header["alg"] == .string("ES256"))
        #expect(token.header["kid"] == .string("KEY1234567"))
        #expect(token.payload["iss"] == .string("ABCDE12345"))
        #expect(token.payload["sub"] == .string("com.example.web"))
        #expect(token.payload["aud"] == .string("https://appleid.apple.com"))
        let iat = try #require(token.payload["iat"]?.intValue)
        let exp = try #require(token.payload["exp"]?.intValue)
        #expect(exp - iat == 600)
        let publicPEM = try String(
            contentsOfFile: Self.repoRoot + "/scenarios/keys/AuthKey_KEY1234567.pub.pem", encoding: .utf8)
        let publicKey = try P256PublicKey(pem: publicPEM)
        #expect(publicKey.verifyES256(signature: token.signature, message: token.signingInput))

        // Without --team-id, --key-id and --key: the built-in scenario's published test key (what the
        // clients/ helpers' client_secret() runs).
        let builtIn = try MockProcess.run(["client-secret", "--client-id", "com.example.app"])
        #expect(builtIn.status == 0, "\(builtIn.stderr)")
        let defaulted = try JWS(compact: builtIn.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(defaulted.header["kid"] == .string("KEY1234567"))
        #expect(defaulted.payload["iss"] == .string("ABCDE12345"))
        #expect(defaulted.payload["sub"] == .string("com.example.app"))
        #expect(publicKey.verifyES256(signature: defaulted.signature, message: defaulted.signingInput))
    }

    @Test func clientSecretRejectsBadInput() throws {
        let tooLong = try MockProcess.run([
            "client-secret", "--team-id", "T", "--client-id", "C", "--key-id", "K", "--key", Self.testKey,
            "--expires-in", "15777001",
        ])
        #expect(tooLong.status == 64)
        #expect(tooLong.stderr.contains("--expires-in must be an integer from 1 to 15777000"))
        let missing = try MockProcess.run(["client-secret", "--team-id", "T"])
        #expect(missing.status == 64)
        let noFile = try MockProcess.run([
            "client-secret", "--team-id", "T", "--client-id", "C", "--key-id", "K", "--key", "/nonexistent.p8",
        ])
        #expect(noFile.status == 1)
        #expect(noFile.stderr.contains("cannot read /nonexistent.p8"))
        let rsa = try MockProcess.run([
            "client-secret", "--team-id", "T", "--client-id", "C", "--key-id", "K",
            "--key", Self.repoRoot + "/scenarios/keys/signing-Aj3F8kLq2X.pem",
        ])
        #expect(rsa.status == 1, "an RSA key is not a P-256 key")
    }

    @Test func keygenWritesAPrivateKeyWithMode0600AndNeverOverwrites() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "siwa-keygen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try MockProcess.run(["keygen", "--out", "k.p8"], directory: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        let path = directory.appendingPathComponent("k.p8").path
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let privateKey = try P256PrivateKey(pem: String(contentsOfFile: path, encoding: .utf8))
        #expect(privateKey.publicKey.pem() == result.stdout)
        let again = try MockProcess.run(["keygen", "--out", "k.p8"], directory: directory.path)
        #expect(again.status == 1)
        #expect(again.stderr.contains("already exists"))
    }
}
