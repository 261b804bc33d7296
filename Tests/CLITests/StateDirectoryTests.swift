import Foundation
import Testing

@testable import siwa_mock

/// `--state-dir` and `--tls-dir` are trusted only when no one else can write them, files are read back
/// only when they are what the mock wrote, and writes never go through a planted link or file.
@Suite struct StateDirectoryTests {
    /// A fresh directory with `mode` under the temporary directory.
    func makeDirectory(mode: mode_t = 0o700) throws -> String {
        var template = Array((NSTemporaryDirectory() + "/siwa-state.XXXXXX").utf8CString)
        let path = try #require(mkdtemp(&template).map { String(cString: $0) })
        chmod(path, mode)
        return path
    }

    func write(_ text: String, _ path: String, mode: mode_t) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        chmod(path, mode)
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        lstat(path, &info)
        return info.st_mode & 0o7777
    }

    /// The `RuntimeError` message `body` throws, or nil when it succeeds.
    func refusal(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return (error as? RuntimeError)?.message ?? "\(error)"
        }
    }

    @Test(arguments: [mode_t(0o777), 0o770, 0o703])
    func directoriesOthersCanWriteAreRefused(_ mode: mode_t) throws {
        let path = try makeDirectory(mode: mode)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let message = try #require(refusal { _ = try StateDirectory(path, role: "state directory") })
        #expect(message.hasPrefix("state directory \(path) is writable by "), "\(message)")
        #expect(message.contains("chmod go-w \(path)"))
    }

    @Test func aForeignOwnedDirectoryIsRefused() throws {
        let path = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Tests run as root in CI; as another user chown fails and the check is covered by ownership anyway.
        guard geteuid() == 0 else { return }
        #expect(chown(path, 4242, 4242) == 0)
        let message = try #require(refusal { _ = try StateDirectory(path, role: "TLS directory") })
        #expect(message.hasPrefix("TLS directory \(path) belongs to uid 4242, not to this user (uid 0)"), "\(message)")
    }

    @Test func plantedOrLooseFilesAreNotReadBack() throws {
        let path = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let directory = try StateDirectory(path, role: "state directory")
        write("key", path + "/readable.pem", mode: 0o666)
        write("key", path + "/shared.pem", mode: 0o640)
        write("cert", path + "/public.pem", mode: 0o644)
        write("target", path + "/target.pem", mode: 0o600)
        symlink(path + "/target.pem", path + "/link.pem")
        mkfifo(path + "/fifo.pem", 0o600)
        #expect(try directory.read("missing.pem", secret: true) == nil)
        #expect(try directory.read("public.pem", secret: false) == "cert")
        #expect(
            refusal { _ = try directory.read("readable.pem", secret: false) }?.contains("writable by group and others")
                == true)
        #expect(
            refusal { _ = try directory.read("shared.pem", secret: true) }
                == "\(path)/shared.pem is a private key readable by group (mode 0640): fix it with `chmod 600 \(path)/shared.pem`"
        )
        #expect(refusal { _ = try directory.read("link.pem", secret: true) }?.contains("is a symbolic link") == true)
        #expect(
            refusal { _ = try directory.read("fifo.pem", secret: true) }?.contains("is a FIFO, not a regular file")
                == true)
        if geteuid() == 0 {
            write("planted", path + "/foreign.pem", mode: 0o600)
            chown(path + "/foreign.pem", 4242, 4242)
            #expect(
                refusal { _ = try directory.read("foreign.pem", secret: true) }?.contains("belongs to uid 4242") == true
            )
        }
    }

    @Test func writesReplaceLinksAndLooseFilesInsteadOfWritingThroughThem() throws {
        let path = try makeDirectory()
        let outside = try makeDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: outside)
        }
        let directory = try StateDirectory(path, role: "TLS directory")
        write("victim", outside + "/victim", mode: 0o644)
        symlink(outside + "/victim", path + "/tls-key.pem")
        write("old", path + "/tls-cert.pem", mode: 0o666)
        try directory.write("new key", to: "tls-key.pem", mode: 0o600, replace: true)
        try directory.write("new cert", to: "tls-cert.pem", mode: 0o600, replace: true)
        try directory.write("public", to: "ca.pem", mode: 0o644, replace: false)
        #expect(
            try String(contentsOfFile: outside + "/victim", encoding: .utf8) == "victim",
            "the link's target is untouched")
        #expect(try directory.read("tls-key.pem", secret: true) == "new key")
        #expect(mode(path + "/tls-key.pem") == 0o600 && mode(path + "/tls-cert.pem") == 0o600)
        #expect(mode(path + "/ca.pem") == 0o644, "exactly the mode asked for, whatever the umask")
        #expect(refusal { try directory.write("again", to: "ca.pem", mode: 0o644, replace: false) } != nil)
        #expect(try directory.read("ca.pem", secret: false) == "public", "an existing file is never replaced")
        let left = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        #expect(left == ["ca.pem", "tls-cert.pem", "tls-key.pem"], "no temporary file is left behind")
    }

    @Test func aPlantedSigningKeyInAnOpenStateDirectoryIsNotAdopted() throws {
        let path = try makeDirectory(mode: 0o777)
        defer { try? FileManager.default.removeItem(atPath: path) }
        write("-----BEGIN PRIVATE KEY-----\n", path + "/signing-Aj3F8kLq2X.pem", mode: 0o600)
        let message = refusal {
            _ = try KeyStateDirectory(path: path).apply(to: .init(keys: []), log: RequestLog())
        }
        #expect(message?.contains("is writable by group and others (mode 0777)") == true, "\(message ?? "accepted")")
    }
}
