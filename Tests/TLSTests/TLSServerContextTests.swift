import TLS
import Testing

@Suite struct TLSServerContextTests {
    @Test func acceptsMatchingCredentials() throws {
        let ca = try TLSCertificateAuthority.generate()
        let leaf = try ca.issueServerCertificate(for: ["localhost"])
        _ = try TLSServerContext(certificateChainPEM: leaf.certificateChainPEM, privateKeyPEM: leaf.privateKeyPEM)
        // A chain with the CA appended is accepted too (intermediates follow the leaf).
        _ = try TLSServerContext(
            certificateChainPEM: leaf.certificateChainPEM + ca.certificatePEM, privateKeyPEM: leaf.privateKeyPEM)
    }

    @Test func rejectsAKeyThatDoesNotMatch() throws {
        let ca = try TLSCertificateAuthority.generate()
        let leaf = try ca.issueServerCertificate(for: ["localhost"])
        let other = try ca.issueServerCertificate(for: ["localhost"])
        let error = #expect(throws: TLSError.self) {
            try TLSServerContext(certificateChainPEM: leaf.certificateChainPEM, privateKeyPEM: other.privateKeyPEM)
        }
        #expect(error?.kind == .invalidCredentials)
        #expect(error?.message.contains("does not match") == true)
    }

    @Test func rejectsInputThatIsNotPEM() throws {
        let ca = try TLSCertificateAuthority.generate()
        let leaf = try ca.issueServerCertificate(for: ["localhost"])
        #expect(throws: TLSError.self) {
            try TLSServerContext(certificateChainPEM: "hello", privateKeyPEM: leaf.privateKeyPEM)
        }
        #expect(throws: TLSError.self) {
            try TLSServerContext(certificateChainPEM: leaf.certificateChainPEM, privateKeyPEM: "hello")
        }
    }

    @Test func sessionTurnsGarbageIntoAFailureNotACrash() throws {
        let ca = try TLSCertificateAuthority.generate()
        let leaf = try ca.issueServerCertificate(for: ["localhost"])
        let context = try TLSServerContext(
            certificateChainPEM: leaf.certificateChainPEM, privateKeyPEM: leaf.privateKeyPEM)
        let session = try TLSSession(context: context)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        #expect(session.read(into: buffer) == .needMoreData)
        Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8).withUnsafeBytes { session.feed($0) }
        guard case .failed(let error) = session.read(into: buffer) else {
            Issue.record("plain HTTP was not reported as a failure")
            return
        }
        #expect(error.kind == .plainHTTP)
        let garbage = try TLSSession(context: context)
        Array(repeating: UInt8(0x16), count: 64).withUnsafeBytes { garbage.feed($0) }
        guard case .failed(let other) = garbage.read(into: buffer) else {
            Issue.record("a malformed record was not reported as a failure")
            return
        }
        #expect(other.kind == .protocolFailure)
        #expect(!garbage.isHandshakeComplete)
    }
}
