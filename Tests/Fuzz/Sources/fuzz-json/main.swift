// Fuzzes the JSON parser; whatever parses must serialize to JSON that parses again.
import FuzzDriver
import JSON

#if canImport(Glibc)
    import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let value = try? JSONValue.parse(bytes) else { return 0 }
    let serialized = value.serialized()
    guard (try? JSONValue.parse(serialized)) != nil else {
        fatalError("serialized JSON does not parse: \(String(decoding: serialized, as: UTF8.self))")
    }
    return 0
}

exit(fuzz_driver_main(CommandLine.argc, CommandLine.unsafeArgv))
