// swift-tools-version:6.0
import PackageDescription

// A minimal server-side Sign in with Apple backend, tested in-process against SIWAMockTesting.
// The app uses Foundation/FoundationNetworking for HTTP and this package's JOSE product for RS256
// (the toolchain ships no RSA verification); its tests use SIWAMockTesting.
let package = Package(
    name: "BackendExample",
    dependencies: [.package(name: "siwa-mock", path: "../..")],
    targets: [
        .target(
            name: "AppleSignInBackend",
            dependencies: [.product(name: "JOSE", package: "siwa-mock"), .product(name: "JSON", package: "siwa-mock")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AppleSignInBackendTests",
            dependencies: ["AppleSignInBackend", .product(name: "SIWAMockTesting", package: "siwa-mock")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
