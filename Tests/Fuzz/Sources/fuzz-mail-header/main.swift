// Fuzzes the message header parser and the MIME walk behind /mock/mail/{id}: any bytes must parse
// without a crash, the body must start inside the input, and every prefix of the input must parse too.
import FuzzDriver
import MIME

#if canImport(Glibc)
    import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let message = MailMessage(parsing: bytes)
    if message.bodyOffset > bytes.count || message.fields.count > MailMessage.maxFields {
        fatalError("body offset \(message.bodyOffset) outside \(bytes.count) bytes")
    }
    _ = message.textParts
    _ = MailAddress.dkimDomains(message)
    if let from = message.field("From") {
        _ = MailAddress.firstAddress(inField: from)
        _ = MailAddress.displayName(inField: from)
    }
    let cut = Int(bytes.first ?? 0) % max(1, bytes.count)
    _ = MailMessage(parsing: bytes[0..<cut]).textParts
    return 0
}

exit(fuzz_driver_main(CommandLine.argc, CommandLine.unsafeArgv))
