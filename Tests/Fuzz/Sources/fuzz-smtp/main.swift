// Fuzzes the SMTP session (command parser, DATA reader, state machine): the input fed whole and
// drip-fed in chunks chosen by the first byte must give the same replies and the same messages.
import FuzzDriver
import SMTP
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Accepts every sender and recipient except `refused@x.example`; records what it delivered.
final class Recorder: SMTPPolicy {
    let messages = Mutex<[[UInt8]]>([])
    func checkSender(_ envelope: SMTPEnvelope) -> SMTPReply? { nil }
    func checkRecipient(_ path: String, envelope: SMTPEnvelope) -> SMTPReply? {
        path == "refused@x.example" ? SMTPReply(550, "5.1.1", "<\(path)>: user not found") : nil
    }
    func deliver(_ data: [UInt8], envelope: SMTPEnvelope) -> SMTPReply {
        messages.withLock { $0.append(data) }
        return .ok
    }
}

func run(_ bytes: [UInt8], chunk: Int) -> ([UInt8], [[UInt8]]) {
    var configuration = SMTPSession.Configuration()
    configuration.maxMessageBytes = 4096
    let policy = Recorder()
    let session = SMTPSession(configuration: configuration, policy: policy, remoteAddress: "fuzz")
    var out = session.greeting()
    var offset = 0
    while offset < bytes.count {
        let output = session.receive(Array(bytes[offset..<min(offset + chunk, bytes.count)]))
        out += output.bytes
        offset += chunk
        if output.action != .proceed { break }
    }
    return (out, policy.messages.withLock { $0 })
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = run(bytes, chunk: max(1, bytes.count))
    let dripped = run(bytes, chunk: Int(bytes.first ?? 0) % 7 + 1)
    if whole.0 != dripped.0 || whole.1 != dripped.1 {
        fatalError("replies or messages depend on how the input was split")
    }
    return 0
}

exit(fuzz_driver_main(CommandLine.argc, CommandLine.unsafeArgv))
