import CBuildInfo

/// What `siwa-mock --version` prints: the release number and the commit the binary was built from, e.g.
/// `siwa-mock 0.2.0 (abc1234)`. The commit is there when the build set SIWA_MOCK_COMMIT (scripts/release.sh,
/// .ci/run, the Dockerfile; Package.swift says why not git itself); a plain `swift build` says
/// `(unknown commit)`.
enum Version {
    static let number = "0.2.0"
    static let commit: String? = siwa_build_commit().map { String(cString: $0) }
    static let string = "siwa-mock \(number) (\(commit ?? "unknown commit"))"
}
