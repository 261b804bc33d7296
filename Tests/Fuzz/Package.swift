// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for siwa-mock, kept out of the main package because they only link with
// `-sanitize=fuzzer` (LLVMFuzzerRunDriver comes from the sanitizer runtime). Build and run with ./run.sh.
//
// Adding a target: create Sources/fuzz-NAME/main.swift (copy fuzz-scenario's), add an entry to `targets`
// below, and put seed inputs in corpus/fuzz-NAME/.
let swiftSettings: [SwiftSetting] = [.swiftLanguageMode(.v6)]

/// A fuzz executable: FuzzDriver plus the root package's library products it exercises.
func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzDriver"] + products.map { .product(name: $0, package: "siwa-mock") },
        swiftSettings: swiftSettings
    )
}

let package = Package(
    name: "siwa-mock-fuzz",
    dependencies: [.package(name: "siwa-mock", path: "../..")],
    targets: [
        .target(name: "FuzzDriver"),
        fuzzTarget("fuzz-scenario", ["ScenarioFormat"]),
        fuzzTarget("fuzz-scenario-loader", ["SIWACore"]),
        fuzzTarget("fuzz-json", ["JSON"]),
        fuzzTarget("fuzz-jws", ["JOSE"]),
        fuzzTarget("fuzz-client-secret", ["SIWACore", "JOSE"]),
        fuzzTarget("fuzz-http-parser", ["HTTPServer"]),
        fuzzTarget("fuzz-form", ["HTTPServer"]),
        fuzzTarget("fuzz-resp", ["HTTPServer"]),
    ]
)
