// Fuzzes the RESP reply parser: fed whole and drip-fed in chunks chosen by the first byte, both must
// yield the same replies and the same final outcome (a mismatch traps).
import FuzzDriver
import RESP

#if canImport(Glibc)
    import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var limits = RESPParser.Limits()
    limits.maxBulkBytes = 4096
    limits.maxElements = 256
    limits.maxReplyBytes = 65536
    var whole = RESPParser(limits: limits)
    whole.feed(bytes)
    var wholeReplies: [RESPValue] = []
    let wholeEnd = drain(&whole, into: &wholeReplies)
    let chunk = Int(bytes.first ?? 0) % 7 + 1
    var dripped = RESPParser(limits: limits)
    var drippedReplies: [RESPValue] = []
    var drippedEnd = RESPParser.Outcome.needMoreData
    var offset = 0
    while offset < bytes.count {
        dripped.feed(bytes[offset..<min(offset + chunk, bytes.count)])
        offset += chunk
        drippedEnd = drain(&dripped, into: &drippedReplies)
        if case .reject = drippedEnd { break }
    }
    // NaN doubles compare unequal to themselves: compare their descriptions.
    precondition("\(wholeReplies)" == "\(drippedReplies)", "whole and drip-fed parses differ")
    precondition(wholeEnd == drippedEnd || "\(wholeEnd)" == "\(drippedEnd)", "final outcomes differ")
    return 0
}

/// Takes replies until more data is needed or the parser rejects; returns that outcome.
func drain(_ parser: inout RESPParser, into replies: inout [RESPValue]) -> RESPParser.Outcome {
    for _ in 0..<10_000 {
        switch parser.next() {
        case .value(let value): replies.append(value)
        case let other: return other
        }
    }
    return .needMoreData
}

exit(fuzz_driver_main(CommandLine.argc, CommandLine.unsafeArgv))
