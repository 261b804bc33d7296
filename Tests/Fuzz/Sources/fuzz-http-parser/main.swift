// Fuzzes the HTTP/1.1 request parser, fed whole and drip-fed in chunks chosen by the first byte.
import FuzzDriver
import HTTP

#if canImport(Glibc)
    import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var whole = HTTPRequestParser(limits: .init(maxHeaderBytes: 4096, maxBodyBytes: 65536))
    whole.append(bytes)
    drain(&whole)
    let chunk = Int(bytes.first ?? 0) % 7 + 1
    var dripped = HTTPRequestParser(limits: .init(maxHeaderBytes: 4096, maxBodyBytes: 65536))
    var offset = 0
    while offset < bytes.count {
        dripped.append(bytes[offset..<min(offset + chunk, bytes.count)])
        offset += chunk
        if !drain(&dripped) { break }
    }
    return 0
}

/// Takes requests until more data is needed; `false` after a reject.
@discardableResult
func drain(_ parser: inout HTTPRequestParser) -> Bool {
    for _ in 0..<1000 {
        switch parser.next() {
        case .needMoreData: return true
        case .request(let request): _ = request
        case .reject: return false
        }
    }
    return true
}

exit(fuzz_driver_main(CommandLine.argc, CommandLine.unsafeArgv))
