// Fuzzes the application/x-www-form-urlencoded decoder; decoded pairs must survive encode → decode.
import FuzzDriver
import HTTP

#if canImport(Glibc)
    import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let pairs = try? URLEncodedForm.decode(bytes) else { return 0 }
    let encoded = URLEncodedForm.encode(pairs.map { ($0.name, $0.value) })
    guard let again = try? URLEncodedForm.decode(Array(encoded.utf8)),
        again.map(\.name) == pairs.map(\.name), again.map(\.value) == pairs.map(\.value)
    else { fatalError("form pairs do not survive encode → decode: \(encoded)") }
    return 0
}

exit(fuzz_driver_main(CommandLine.argc, CommandLine.unsafeArgv))
