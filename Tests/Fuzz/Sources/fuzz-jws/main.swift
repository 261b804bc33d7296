// Fuzzes JWS compact decoding and base64url decoding.
import FuzzDriver
import JOSE

#if canImport(Glibc)
    import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let jws = try? JWS(compact: text) {
        _ = jws.algorithm
        _ = jws.keyID
    }
    _ = Base64URL.decode(text)
    return 0
}

exit(fuzz_driver_main(CommandLine.argc, CommandLine.unsafeArgv))
