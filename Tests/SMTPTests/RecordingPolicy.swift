import SMTP
import Synchronization

/// A policy for tests: refuses recipients in `refused`, records delivered messages.
final class RecordingPolicy: SMTPPolicy {
    let refused: Set<String>
    /// Every message gets 550 at the end of DATA.
    let refusingMessages: Bool
    let delivered = Mutex<[(data: [UInt8], envelope: SMTPEnvelope)]>([])

    init(refused: Set<String> = [], refusingMessages: Bool = false) {
        self.refused = refused
        self.refusingMessages = refusingMessages
    }

    func checkSender(_ envelope: SMTPEnvelope) -> SMTPReply? {
        envelope.reversePath == "spammer@bad.example" ? SMTPReply(550, "5.7.1", "no") : nil
    }

    func checkRecipient(_ path: String, envelope: SMTPEnvelope) -> SMTPReply? {
        refused.contains(path) ? SMTPReply(550, "5.1.1", "<\(path)>: user not found") : nil
    }

    func deliver(_ data: [UInt8], envelope: SMTPEnvelope) -> SMTPReply {
        if refusingMessages { return SMTPReply(550, "5.7.1", "no") }
        delivered.withLock { $0.append((data, envelope)) }
        return SMTPReply(250, "2.0.0", "Ok: queued")
    }

    var messages: [[UInt8]] { delivered.withLock { $0.map(\.data) } }
}

/// Runs `input` through a fresh session in chunks of `chunk` bytes (1 = drip-fed); returns the
/// concatenated output and the last action.
func converse(
    _ input: String, chunk: Int = .max, policy: RecordingPolicy = RecordingPolicy(),
    configure: (inout SMTPSession.Configuration) -> Void = { _ in }
) -> (text: String, action: SMTPSession.Action) {
    var configuration = SMTPSession.Configuration()
    configuration.hostname = "mx.test"
    configure(&configuration)
    let session = SMTPSession(configuration: configuration, policy: policy, remoteAddress: "127.0.0.1:1")
    var out = session.greeting()
    var action = SMTPSession.Action.proceed
    let bytes = Array(input.utf8)
    var index = 0
    while index < bytes.count && action == .proceed {
        let end = min(bytes.count, index + max(1, min(chunk, bytes.count)))
        let result = session.receive(Array(bytes[index..<end]))
        out += result.bytes
        action = result.action
        index = end
    }
    return (String(decoding: out, as: UTF8.self), action)
}

/// The reply codes in an output, one per final reply line.
func codes(_ text: String) -> [String] {
    text.utf8.split(separator: 10).map { Array($0) }.filter { $0.count >= 4 && $0[3] == 32 }
        .map { String(decoding: $0.prefix(3), as: UTF8.self) }
}
