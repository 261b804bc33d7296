import TLS

/// TLS (HTTPS): the same blocking connection with a client ``TLSSession`` between the socket and the exchange.
extension ClientConnection {
    /// Runs the TLS handshake for `serverName` over the connected socket; afterwards `write` and the
    /// response reader go through the session.
    /// - Throws: `.connectFailed` naming the TLS problem (an untrusted certificate, a wrong name, …).
    package func startTLS(_ context: TLSClientContext, serverName: String) throws(ClientError) {
        let session: TLSSession
        do {
            session = try TLSSession(client: context, serverName: serverName)
        } catch {
            throw ClientError(.connectFailed, "TLS: \(error.message)")
        }
        while true {
            let done: Bool
            do {
                done = try session.handshake()
            } catch {
                throw ClientError(.connectFailed, "TLS with \(serverName): \(error.message)")
            }
            var output: [UInt8] = []
            session.takeOutput(into: &output)
            if !output.isEmpty { try writeRaw(output) }
            if done { break }
            guard let bytes = try readRaw() else {
                throw ClientError(.connectFailed, "TLS with \(serverName): the server closed the connection")
            }
            bytes.withUnsafeBytes { session.feed($0) }
        }
        tls = session
    }

    func encrypt(_ plaintext: [UInt8], with session: TLSSession) throws(ClientError) {
        do {
            try session.write(plaintext)
        } catch {
            throw ClientError(.socket, "TLS: \(error.message)")
        }
        var output: [UInt8] = []
        session.takeOutput(into: &output)
        try writeRaw(output)
    }

    /// Decrypts the next plaintext into `inbound`; false at the end of the stream.
    func fillDecrypted(from session: TLSSession) throws(ClientError) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            switch chunk.withUnsafeMutableBytes({ session.read(into: $0) }) {
            case .bytes(let count):
                inbound.append(contentsOf: chunk[0..<count])
                return true
            case .closed:
                sawEOF = true
                return false
            case .failed(let error):
                throw ClientError(.socket, "TLS: \(error.message)")
            case .needMoreData:
                var output: [UInt8] = []
                session.takeOutput(into: &output)
                if !output.isEmpty { try writeRaw(output) }
                guard let bytes = try readRaw() else {
                    sawEOF = true
                    return false
                }
                bytes.withUnsafeBytes { session.feed($0) }
            }
        }
    }
}
