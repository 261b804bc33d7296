/// One connection of a service driven by a test instead of a socket: the test feeds the peer's bytes,
/// reads what was sent, moves the clock, and decides how much output the peer accepts. The session and
/// every phase (`ConnectionContext+Phases.swift`) are the server's own; only the transport's primitives
/// are in memory here. Used on one thread.
package final class EmbeddedConnection: ConnectionContext {
    /// How the connection ended, if it did.
    package enum Ending: Equatable {
        /// Closed after its write side was shut (a lingering close, or `closeWithoutOutput`).
        case finished
        /// Closed without shutting the write side first (a timeout, a stall, a rejected peer).
        case closed
        /// Closed with RST.
        case reset
    }

    package let connection: Connection
    package private(set) var now: Int64
    package var isStopping = false
    package let idleTimeout: Int64
    package let handshakeTimeout: Int64
    package let inbox = LoopInbox(wakeFD: nil)
    /// Everything that left, in order (ciphertext on TLS).
    package private(set) var sent: [UInt8] = []
    /// How many more bytes the peer's receive window takes before sends would block (`.max`: all).
    package var window: Int = .max
    /// Set once the write side was shut.
    package private(set) var writeShut = false
    package private(set) var ending: Ending? = nil
    /// Diagnostics reported for this connection.
    package private(set) var reports: [ConnectionDiagnostic.Kind] = []
    private var handler: any LoopHandler

    /// A connection of `service` opened at `now` (nanoseconds on the test's clock).
    package init(
        service: any ConnectionService, remoteAddress: String = "127.0.0.1:40000", now: Int64 = 1_000_000_000,
        idleTimeoutMilliseconds: Int = 60_000, handshakeTimeoutMilliseconds: Int = 10_000
    ) {
        self.now = now
        idleTimeout = MonotonicClock.nanoseconds(milliseconds: idleTimeoutMilliseconds)
        handshakeTimeout = MonotonicClock.nanoseconds(milliseconds: handshakeTimeoutMilliseconds)
        handler = service.makeLoopHandler()
        connection = Connection(
            fd: 0, serial: 1, remoteAddress: remoteAddress, session: handler.makeSession(remoteAddress: remoteAddress),
            interest: 0)
        setDeadline(connection, now + idleTimeout, .idle)
        connection.session.opened(connection, on: self)
        handler.passEnded()
    }

    package var isOpen: Bool { ending == nil }
    package var phase: Connection.Phase { connection.phase }
    /// When the connection's deadline passes, and of what kind (`.max` when none runs).
    package var deadline: (at: Int64, kind: Connection.DeadlineKind) { (connection.deadline, connection.deadlineKind) }

    /// The peer sends `bytes` (as one read); what the server does with them runs now, as on the loop.
    package func feed(_ bytes: [UInt8]) {
        guard isOpen else { return }
        switch connection.phase {
        case .reading:
            let accepted = bytes.withUnsafeBytes { connection.session.receive($0, on: connection, loop: self) }
            guard accepted, isOpen else { break }
            connection.session.process(connection, on: self)
        case .writing, .held, .dribbling, .parked, .lingering:
            // Input waits in the socket while the connection is busy (the loop does not read it); a
            // lingering connection discards it.
            pendingInput.append(contentsOf: bytes)
        }
        handler.passEnded()
    }

    /// The peer feeds `text` as UTF-8.
    package func feed(_ text: String) { feed(Array(text.utf8)) }

    /// Input that arrived while the connection was not reading: read once it reads again (`settle`).
    private var pendingInput: [UInt8] = []

    /// The peer shuts its write side (EOF); a parked connection hears it as the peer leaving.
    package func peerCloses() {
        guard isOpen else { return }
        connection.peerClosed = true
        switch connection.phase {
        case .reading:
            connection.session.process(connection, on: self)
        case .parked:
            setInterest(connection, 0)
            connection.session.peerLeftWhileParked(connection, on: self)
        case .lingering:
            close(connection)
        case .writing, .held, .dribbling:
            break
        }
        handler.passEnded()
    }

    /// Moves the clock by `nanoseconds` and fires the deadline if it passed (repeatedly, as ticks do).
    package func advance(by nanoseconds: Int64) {
        let target = now + nanoseconds
        while isOpen && connection.deadline <= target {
            now = max(now, connection.deadline)
            let kind = connection.deadlineKind
            connection.deadline = .max
            fire(kind, for: connection)
            settle()
        }
        now = target
        handler.passEnded()
    }

    /// The peer's window opens by `bytes` (it read them): output waiting for room goes on.
    package func peerReads(_ bytes: Int = .max) {
        window = bytes == .max ? .max : (window == .max ? .max : window + bytes)
        if isOpen && connection.hasPendingOutput { writable(connection) }
        settle()
        handler.passEnded()
    }

    /// Delivers what other threads posted to the parked connection (the loop does on its wake-up).
    package func deliverPosts() {
        for item in inbox.take() where isOpen && item.serial == connection.serial {
            resume(connection, with: item.payload)
        }
        settle()
        handler.passEnded()
    }

    /// Takes what was sent since the last call, as text.
    package func takeSentText() -> String {
        defer { sent.removeAll() }
        return String(decoding: sent, as: UTF8.self)
    }

    /// Input that waited while the connection was busy is read once it reads again.
    private func settle() {
        guard isOpen, !pendingInput.isEmpty else { return }
        if case .lingering = connection.phase {
            pendingInput.removeAll()
            return
        }
        guard connection.isReading else { return }
        let bytes = pendingInput
        pendingInput.removeAll()
        feed(bytes)
    }
}

extension EmbeddedConnection {
    package func isOpen(_ connection: Connection) -> Bool { ending == nil }

    package func transmit(_ connection: Connection, limit: Int) -> FlushResult {
        guard isOpen else { return .closed }
        let waiting = connection.outbound.count - connection.outboundOffset
        let count = min(waiting, limit, window)
        if count > 0 {
            sent.append(contentsOf: connection.outbound[connection.outboundOffset..<connection.outboundOffset + count])
            connection.outboundOffset += count
            if window != .max { window -= count }
        }
        guard connection.outboundOffset >= connection.outbound.count else { return .pending }
        connection.outbound.removeAll(keepingCapacity: true)
        connection.outboundOffset = 0
        return .complete
    }

    package func setInterest(_ connection: Connection, _ events: UInt32) { connection.interest = events }

    package func setDeadline(_ connection: Connection, _ deadline: Int64, _ kind: Connection.DeadlineKind) {
        connection.deadline = deadline
        connection.deadlineKind = kind
    }

    package func close(_ connection: Connection) {
        guard isOpen else { return }
        ending = writeShut ? .finished : .closed
        connection.session.closed()
    }

    package func shutdownWrite(_ connection: Connection) { writeShut = true }

    package func reset(_ connection: Connection) {
        guard isOpen else { return }
        ending = .reset
        connection.session.closed()
    }

    package func report(_ kind: ConnectionDiagnostic.Kind, _ connection: Connection, _ message: String) {
        reports.append(kind)
    }
}

extension EmbeddedConnection {
    /// A stream (SMTP-like) connection of `service`, fed by a test: the same seam as HTTP's.
    package convenience init(stream service: any StreamService, idleTimeoutMilliseconds: Int = 60_000) {
        self.init(service: StreamConnectionService(service: service), idleTimeoutMilliseconds: idleTimeoutMilliseconds)
    }
}
