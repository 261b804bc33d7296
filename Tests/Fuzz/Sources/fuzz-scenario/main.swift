// Fuzzes the scenario parser and the typed readers on every scalar of what it parses.
// Any crash, sanitizer report, leak or timeout is a bug: bad input must become a diagnostic.
import FuzzDriver
import ScenarioFormat

#if canImport(Glibc)
    import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let document = try? ScenarioDocument.parse(bytes: bytes, file: "fuzz.yaml") else { return 0 }
    exercise(document.root)
    return 0
}

/// Runs every reader on every node; each must return or throw, never trap.
func exercise(_ node: Node) {
    _ = try? node.string()
    _ = try? node.int()
    _ = try? node.bool()
    _ = try? node.double()
    _ = try? node.duration()
    _ = try? node.timestamp()
    switch node.kind {
    case .scalar: break
    case .sequence(let items): items.forEach(exercise)
    case .mapping(let entries):
        _ = try? node.checkKeys(allowed: ["lifetime", "team_id", "client_id", "redirect_uris", "users"])
        for entry in entries { exercise(entry.value) }
    }
}

exit(fuzz_driver_main(CommandLine.argc, CommandLine.unsafeArgv))
