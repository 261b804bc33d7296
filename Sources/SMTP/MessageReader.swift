/// The DATA phase as a byte state machine: undoes dot-stuffing, finds the end-of-data line and
/// bounds the kept size (RFC 5321 §4.1.1.4, §4.5.2).
///
/// Only `<CRLF>.<CRLF>` ends the message; a bare LF before or after the dot does not (the "SMTP
/// smuggling" ambiguity, CVE-2023-51764), it is kept as message content.
struct MessageReader {
    enum Position {
        /// At the start of a line (also right after 354).
        case lineStart
        case inLine
        /// A CR inside a line.
        case afterCR
        /// The line began with `.`.
        case afterDot
        /// `.` then CR at the start of a line: LF ends the message.
        case afterDotCR
    }

    /// The first reservation; later ones double it, up to `limit`.
    static let firstReservation = 64 * 1024

    let limit: Int
    let budget: MessageBudget?
    var position = Position.lineStart
    var data: [UInt8] = []
    /// Bytes of content seen, kept or not.
    var size = 0
    /// Bytes taken from `budget` for `data` (its capacity is grown to this, never past it).
    var reserved = 0
    /// The shared budget had no room: the content is read and dropped.
    var isOverBudget = false

    init(limit: Int, budget: MessageBudget? = nil) {
        self.limit = limit
        self.budget = budget
    }

    var isOversized: Bool { size > limit }

    mutating func emit(_ byte: UInt8) {
        size += 1
        guard size <= limit, !isOverBudget else { return }
        if data.count == reserved { grow() }
        if !isOverBudget { data.append(byte) }
    }

    /// `emit` for each byte of `run`, in bulk.
    mutating func emit(_ run: UnsafeRawBufferPointer) {
        var from = 0
        while from < run.count, size < limit, !isOverBudget {
            if data.count == reserved {
                grow()
                continue
            }
            let take = min(run.count - from, reserved - data.count, limit - size)
            data.append(contentsOf: UnsafeRawBufferPointer(rebasing: run[from..<(from + take)]))
            size += take
            from += take
        }
        size += run.count - from
    }

    /// Doubles the reservation (at most to `limit`); drops the content when the budget says no.
    mutating func grow() {
        let target = min(limit, max(Self.firstReservation, reserved * 2))
        guard budget?.reserve(target - reserved) ?? true else {
            isOverBudget = true
            data = []
            releaseReservation()
            return
        }
        data.reserveCapacity(target)
        reserved = target
    }

    /// Gives the reservation back (the message ended or the connection went).
    mutating func releaseReservation() {
        budget?.release(reserved)
        reserved = 0
    }

    /// Consumes bytes from `start`; returns where it stopped and whether the message ended there.
    mutating func consume(_ bytes: UnsafeRawBufferPointer, from start: Int) -> (Int, Bool) {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch position {
            case .lineStart:
                if byte == UInt8(ascii: ".") {
                    position = .afterDot
                } else {
                    emit(byte)
                    position = byte == 13 ? .afterCR : .inLine
                }
            case .inLine:
                if byte == 13 {
                    emit(byte)
                    position = .afterCR
                } else {
                    // The rest of the line up to its CR is content as it is: kept in one copy.
                    let end = bytes[index...].firstIndex(of: 13) ?? bytes.count
                    emit(UnsafeRawBufferPointer(rebasing: bytes[(index - 1)..<end]))
                    index = end
                }
            case .afterCR:
                emit(byte)
                position = byte == 10 ? .lineStart : byte == 13 ? .afterCR : .inLine
            case .afterDot:
                // A leading dot is removed (transparency); the rest of the line is content.
                if byte == 13 {
                    position = .afterDotCR
                } else {
                    emit(byte)
                    position = .inLine
                }
            case .afterDotCR:
                if byte == 10 { return (index, true) }
                emit(13)
                emit(byte)
                position = byte == 13 ? .afterCR : .inLine
            }
        }
        return (index, false)
    }
}
