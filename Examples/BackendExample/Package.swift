// swift-tools-version:6.0
import PackageDescription

// A minimal server-side Sign in with Apple backend, tested in-process against SIWAMockTesting.
// The app uses Foundation/FoundationNetworking for HTTP and JSON, and the system's OpenSSL 3 for RS256
// (Foundation on Linux has no RSA); only its tests depend on siwa-mock, through SIWAMockTesting.
let package = Package(
    name: "BackendExample",
    dependencies: [.package(name: "siwa-mock", path: "../..")],
    targets: [
        .systemLibrary(name: "CExampleOpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .target(
            name: "AppleSignInBackend", dependencies: ["CExampleOpenSSL"], swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "AppleSignInBackendTests",
            dependencies: ["AppleSignInBackend", .product(name: "SIWAMockTesting", package: "siwa-mock")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
