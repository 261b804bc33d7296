// swift-tools-version:6.0
import PackageDescription

#if os(Linux)
    import Glibc
#endif

// Dependency direction (each arrow is an import; none points back):
//   SIWAMockTesting ─► SIWAServer (the same MockHost wiring as `serve`, in the test process)
//   siwa-mock ─► SIWAServer ─► SIWACore ─► ScenarioModel ─► JOSE ─► JSON, COpenSSL
//                    │        (AppleRules/,    │  (Model/, Loading/)
//                    │         Machinery/)     └──────► ScenarioFormat   (SIWACore also uses its time grammar)
//                    ├─────────► SMTP ─► MIME   (sans-I/O SMTP session; MIME: the message parser, no dependencies)
//                    ├─────────► Mailbox ─► MIME, SIWACore, Background   (the relay's store, index, search, waits)
//                    ├─────────► HTTP ───┐    (parser, request/response, forms, the HTTP session and client)
//                    │                   ▼
//                    ├─────────► EventLoop ─► CSys   (sockets, epoll loops, timers, TLS on streams, stream
//                    │                └──► TLS ─► JOSE, COpenSSL      sessions, the listener, the client socket)
//                    └─────────► Background   (the one thread pool and timer helper)
//   siwa-mock ─► RedisStore ─► SIWACore, RESP ─► EventLoop   (GrantStore in Redis over the RESP client)
//   siwa-mock ─► RPCheck ─► HTTP, JSON, ScenarioModel   (`rp-check`: the hostile Apple's runner, via the control API)
//   KindedErrors (the one error shape, `KindedError`) sits below JOSE, TLS, EventLoop and RESP.
//   Locking (the one lock type, `Lock`) sits below every module that shares state between threads.
// TLS uses JOSE's OpenSSL support layer (error queue, memory BIOs, the PEM key reader) through `package`
// access; only JOSE and TLS import COpenSSL, and no OpenSSL type is in a public signature.
// SIWACore and the networking modules never import each other; only EventLoop makes socket syscalls
// (through `Syscall`); SMTP's listener is an EventLoop stream server wired in SIWAServer and the executable;
// only the executable reads argv, env or files.
// Access: every module is used only inside this package (the executable, the tests, the fuzz targets), so
// cross-module internals are `package`, not `public`; only library products meant for other packages are public.
let swiftSettings: [SwiftSetting] = [.swiftLanguageMode(.v6)]

/// How the README's build (`swift build -c release`) links the binary. Fully static (`-static-executable`,
/// with the toolchain's lld) where the static archives are installed, as Debian's and Ubuntu's libc6-dev,
/// libssl-dev and libstdc++-dev install them: no shared library to load and relocate, so a start takes a
/// third of the time, and with the start-up code laid out together 8.4 MiB idle instead of 15
/// (bench/RESULTS.md, "issue #26's fifth pass"). glibc's `files` and `dns` host lookups are built into its
/// static libc since 2.34, so names resolve with no shared library present (checked in a chroot holding
/// only the binary). Elsewhere (Fedora, RHEL and Amazon Linux ship those archives in extra packages) the
/// Swift runtime is linked in (`-static-stdlib`) at a fixed load address (`-no-pie`: ld.so then skips the
/// binary's 30,000 relative relocations).
let releaseLinkFlags: [String] = {
    #if os(Linux)
        #if arch(x86_64)
            let libraries = "/usr/lib/x86_64-linux-gnu"
        #elseif arch(arm64)
            let libraries = "/usr/lib/aarch64-linux-gnu"
        #else
            let libraries = "/usr/lib"
        #endif
        func present(_ pattern: String) -> Bool {
            var matches = glob_t()
            defer { globfree(&matches) }
            return glob(pattern, 0, nil, &matches) == 0 && matches.gl_pathc > 0
        }
        let archives = ["libc.a", "libm.a", "libssl.a", "libcrypto.a"].map { "\(libraries)/\($0)" }
        if archives.allSatisfy(present) && present("/usr/lib/gcc/*/*/libstdc++.a") {
            // The code a start and the first requests run, laid out together (scripts/symbol-order.sh says
            // why: the kernel maps text 64 KB around each fault; idle RSS 12.0 → 8.4 MiB).
            let order = Context.packageDirectory + "/scripts/symbol-order.txt"
            let ordering =
                access(order, F_OK) == 0
                ? ["-Xlinker", "--symbol-ordering-file=\(order)", "-Xlinker", "--no-warn-symbol-ordering"] : []
            return ["-static-executable", "-use-ld=lld"] + ordering
        }
    #endif
    return ["-static-stdlib", "-Xclang-linker", "-no-pie"]
}()

/// The commit `siwa-mock --version` names: SIWA_MOCK_COMMIT (7 to 40 hex digits) when the build sets it, as
/// scripts/release.sh, .ci/run and the Dockerfile do (`SIWA_MOCK_COMMIT=$(git rev-parse --short HEAD)`); a
/// plain `swift build` or `swift run` says "unknown commit". Not `Context.gitInformation`: SwiftPM caches the
/// evaluated manifest under a key holding the environment but not the checkout's HEAD, so a commit made
/// after the first build kept the first commit's hash (tried: three commits, one hash). Only CBuildInfo
/// sees the value, and only the executable depends on it: a release build recompiles every Swift module
/// that depends on a changed C module (whole-module builds are not incremental), so a new commit
/// recompiles build_commit.c and the executable's module, not the library modules.
let buildCommit: String? = {
    guard let commit = Context.environment["SIWA_MOCK_COMMIT"], (7...40).contains(commit.count),
        commit.allSatisfy(\.isHexDigit)
    else { return nil }
    return commit.lowercased()
}()

let package = Package(
    name: "siwa-mock",
    products: [
        .executable(name: "siwa-mock", targets: ["siwa-mock"]),
        // The in-process mock for Swift tests (docs/swift-library.md): `AppleIDMock.start()`. Its own
        // types are public; it reaches SIWAServer and SIWACore through `package` access.
        .library(name: "SIWAMockTesting", targets: ["SIWAMockTesting"]),
    ],
    targets: [
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "CSys"),
        // The build's commit for `--version` (buildCommit above); only the executable depends on it.
        .target(
            name: "CBuildInfo", cSettings: buildCommit.map { [.define("SIWA_MOCK_COMMIT", to: "\"\($0)\"")] } ?? []
        ),
        // The one lock type (`Lock`), on glibc's adaptive mutex rather than the toolchain's priority-
        // inheritance `Mutex` (Sources/Locking/Lock.swift says why); no dependencies.
        .target(name: "Locking", swiftSettings: swiftSettings),
        .target(name: "Background", dependencies: ["Locking"], swiftSettings: swiftSettings),
        .target(name: "JSON", swiftSettings: swiftSettings),
        .target(name: "KindedErrors", swiftSettings: swiftSettings),
        .target(name: "JOSE", dependencies: ["COpenSSL", "JSON", "KindedErrors"], swiftSettings: swiftSettings),
        .target(name: "ScenarioFormat", swiftSettings: swiftSettings),
        // Internet messages (RFC 5322 fields and addresses, MIME parts, RFC 2047 words, RFC 2231 parameters):
        // parsed, never sent; no dependencies.
        .target(name: "MIME", swiftSettings: swiftSettings),
        // The SMTP protocol (session, command parser, replies, the DATA reader and its budget); envelope
        // addresses are checked by MIME's one mailbox grammar.
        .target(name: "SMTP", dependencies: ["MIME"], swiftSettings: swiftSettings),
        .target(name: "TLS", dependencies: ["COpenSSL", "JOSE", "KindedErrors"], swiftSettings: swiftSettings),
        // Sockets, the epoll loops and their timers, TLS on streams, the listener, `StreamSession` (what
        // SMTP runs on) and the blocking client socket: everything below a protocol. The only module that
        // makes socket syscalls.
        .target(
            name: "EventLoop", dependencies: ["CSys", "TLS", "KindedErrors", "Locking"], swiftSettings: swiftSettings),
        // HTTP/1.1 on the event loop: parser, request/response values, forms, serialization, the per-connection
        // session the loop drives, and the client.
        .target(name: "HTTP", dependencies: ["EventLoop", "TLS", "Locking"], swiftSettings: swiftSettings),
        // The Redis client (RESP parser, connection pool) on the event loop's client socket.
        .target(name: "RESP", dependencies: ["EventLoop", "KindedErrors", "Locking"], swiftSettings: swiftSettings),
        // The scenario model and its loader: a new scenario switch goes here (Model/ for the value,
        // Loading/ for its key). The only module that reads ScenarioFormat's nodes; it imports no SIWACore.
        .target(
            name: "ScenarioModel", dependencies: ["JOSE", "ScenarioFormat", "Locking"], swiftSettings: swiftSettings),
        // Apple's rules (AppleRules/: a new Apple rule goes here) and the mock's machinery (Machinery/:
        // provider, runtime changes, faults, timeline, fleet, injected clock and randomness).
        .target(
            name: "SIWACore", dependencies: ["ScenarioModel", "JOSE", "JSON", "ScenarioFormat", "Locking"],
            swiftSettings: swiftSettings
        ),
        // The shared state store of docs/scale-out.md: SIWACore's GrantStore over RESP's Redis client.
        .target(
            name: "RedisStore", dependencies: ["SIWACore", "ScenarioModel", "RESP", "Locking"],
            swiftSettings: swiftSettings),
        // The hostile Apple's runner (`siwa-mock rp-check`, docs/rp-check.md): drives a backend through a running
        // mock's control API, judges what it accepts, reports a table and JUnit XML. Knows no server internals.
        .target(name: "RPCheck", dependencies: ["HTTP", "JSON", "ScenarioModel"], swiftSettings: swiftSettings),
        // The relay's mailbox: the bounded store, its records with each message's index (read once when
        // stored), the waiters, the filters, the one Mailpit search and the Mailpit view. No routes.
        .target(
            name: "Mailbox", dependencies: ["MIME", "SIWACore", "JSON", "Background", "Locking"],
            swiftSettings: swiftSettings),
        .target(
            name: "SIWAServer",
            dependencies: [
                "SIWACore", "ScenarioModel", "HTTP", "EventLoop", "SMTP", "MIME", "Mailbox", "Background", "JOSE",
                "JSON",
                "ScenarioFormat", "CSys", "Locking",
            ],
            swiftSettings: swiftSettings
        ),
        // Public surface of its own (AuthenticationServices-shaped types); it reaches SIWAServer and
        // SIWACore through `package` access and re-exports none of their types.
        .target(
            name: "SIWAMockTesting",
            dependencies: [
                "SIWAServer", "SIWACore", "ScenarioModel", "HTTP", "EventLoop", "JOSE", "JSON", "ScenarioFormat",
                "Locking",
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "siwa-mock",
            dependencies: [
                "SIWAServer", "SIWACore", "ScenarioModel", "HTTP", "EventLoop", "RESP", "Background", "TLS", "JOSE",
                "JSON", "ScenarioFormat", "CSys", "RedisStore", "Locking", "CBuildInfo", "RPCheck",
            ],
            swiftSettings: swiftSettings,
            // The binary the README builds (`swift build -c release`) is the fast one: `releaseLinkFlags`.
            linkerSettings: [.unsafeFlags(releaseLinkFlags, .when(configuration: .release))]
        ),
        .target(
            name: "SIWATestSupport",
            dependencies: [
                "SIWAServer", "SIWACore", "ScenarioModel", "HTTP", "EventLoop", "RESP", "Background", "JOSE", "JSON",
                "RedisStore",
            ],
            path: "Tests/SIWATestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "JSONTests", dependencies: ["JSON"], swiftSettings: swiftSettings),
        .testTarget(name: "JOSETests", dependencies: ["JOSE", "JSON"], swiftSettings: swiftSettings),
        .testTarget(name: "ScenarioFormatTests", dependencies: ["ScenarioFormat"], swiftSettings: swiftSettings),
        // The model and the loader, alone (ScenarioFiles in the test support checks rules against the real routes).
        .testTarget(
            name: "ScenarioModelTests", dependencies: ["ScenarioModel", "JOSE", "JSON", "SIWATestSupport"],
            swiftSettings: swiftSettings),
        // One test target per networking module: the loop with a stream service (no HTTP), HTTP on the loop
        // (parser, delivery faults, TLS, the client), and the Redis client against a misbehaving fake peer.
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop"], swiftSettings: swiftSettings),
        .testTarget(
            name: "HTTPTests", dependencies: ["HTTP", "EventLoop", "TLS", "SIWACore"], swiftSettings: swiftSettings),
        .testTarget(name: "RESPTests", dependencies: ["RESP", "EventLoop"], swiftSettings: swiftSettings),
        .testTarget(name: "SMTPTests", dependencies: ["SMTP"], swiftSettings: swiftSettings),
        .testTarget(name: "MIMETests", dependencies: ["MIME"], swiftSettings: swiftSettings),
        .testTarget(name: "TLSTests", dependencies: ["TLS", "JOSE"], swiftSettings: swiftSettings),
        .testTarget(name: "BackgroundTests", dependencies: ["Background"], swiftSettings: swiftSettings),
        .testTarget(name: "LockingTests", dependencies: ["Locking"], swiftSettings: swiftSettings),
        .testTarget(
            name: "SIWACoreTests",
            dependencies: ["SIWACore", "ScenarioModel", "JOSE", "JSON", "SIWATestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SIWAServerTests",
            dependencies: [
                "SIWAServer", "SIWACore", "ScenarioModel", "HTTP", "EventLoop", "Background", "JOSE", "JSON", "MIME",
                "Mailbox", "SIWATestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RedisStoreTests",
            dependencies: ["RedisStore", "SIWACore", "ScenarioModel", "RESP", "SIWATestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SIWAMockTestingTests", dependencies: ["SIWAMockTesting", "HTTP", "EventLoop"],
            swiftSettings: swiftSettings),
        .testTarget(name: "RPCheckTests", dependencies: ["RPCheck", "HTTP", "JSON"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CLITests", dependencies: ["siwa-mock", "Background"], exclude: ["HelpSnapshots"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["JOSE", "JSON", "HTTP", "EventLoop", "TLS", "siwa-mock"],
            swiftSettings: swiftSettings
        ),
    ]
)

// libFuzzer targets (Tests/Fuzz/run.sh sets SIWA_FUZZ=1): they link only with `-sanitize=fuzzer`, so a plain
// `swift build` never sees them. Inside this package they use the modules' `package` declarations.
if Context.environment["SIWA_FUZZ"] == "1" {
    let fuzzTargets: [(name: String, modules: [Target.Dependency])] = [
        ("fuzz-scenario", ["ScenarioFormat"]),
        ("fuzz-scenario-loader", ["SIWACore", "ScenarioModel"]),
        ("fuzz-json", ["JSON"]),
        ("fuzz-jws", ["JOSE"]),
        ("fuzz-client-secret", ["SIWACore", "ScenarioModel", "JOSE"]),
        ("fuzz-http-parser", ["HTTP"]),
        ("fuzz-form", ["HTTP"]),
        ("fuzz-smtp", ["SMTP"]),
        ("fuzz-mail-header", ["MIME"]),
        ("fuzz-resp", ["RESP"]),
    ]
    package.targets.append(.target(name: "FuzzDriver", path: "Tests/Fuzz/Sources/FuzzDriver"))
    for target in fuzzTargets {
        package.targets.append(
            .executableTarget(
                name: target.name, dependencies: ["FuzzDriver"] + target.modules,
                path: "Tests/Fuzz/Sources/\(target.name)", swiftSettings: swiftSettings))
    }
}
