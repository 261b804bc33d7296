/// Text forms of time used by the control API: RFC 3339 timestamps and short durations (`6m`).
///
/// No Foundation (startup cost, design.md §3); civil-date arithmetic after H. Hinnant's algorithms.
public enum TimeText {
    /// The latest time the control API accepts: 9999-12-31T23:59:59.999Z (RFC 3339 has 4-digit years).
    public static let maximumMilliseconds: Int64 = 253_402_300_799_999

    /// `2026-11-29T13:04:08.123Z` (UTC, milliseconds).
    public static func rfc3339(milliseconds: Int64) -> String {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let millis = milliseconds - seconds * 1000
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = seconds - days * 86400
        let (year, month, day) = civil(fromDays: days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(millis, 3))Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` into milliseconds since the epoch; nil when malformed.
    public static func parseRFC3339(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 40 else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                guard index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 else { return nil }
                value = value * 10 + Int64(bytes[index] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), bytes[4] == 0x2D, let month = number(5..<7), bytes[7] == 0x2D,
            let day = number(8..<10), bytes[10] == 0x54 || bytes[10] == 0x74, let hour = number(11..<13),
            bytes[13] == 0x3A, let minute = number(14..<16), bytes[16] == 0x3A, let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var millis: Int64 = 0
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            var digits = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                if digits < 3 { millis = millis * 10 + Int64(bytes[index] - 0x30) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            if digits < 3 { for _ in digits..<3 { millis *= 10 } }
        }
        guard index < bytes.count else { return nil }
        var offset: Int64 = 0
        if bytes[index] == 0x5A || bytes[index] == 0x7A {
            index += 1
        } else if bytes[index] == 0x2B || bytes[index] == 0x2D {
            guard let hours = number((index + 1)..<(index + 3)), index + 3 < bytes.count, bytes[index + 3] == 0x3A,
                let minutes = number((index + 4)..<(index + 6)), hours < 24, minutes < 60
            else { return nil }
            offset = (hours * 60 + minutes) * 60 * (bytes[index] == 0x2D ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let seconds = days(fromYear: year, month: month, day: day) * 86400 + hour * 3600 + minute * 60 + second - offset
        return seconds * 1000 + millis
    }

    /// Parses `90`, `90s`, `6m`, `2h`, `1d`, `500ms` (optionally negative) into milliseconds.
    public static func parseDuration(_ text: String) -> Int64? {
        var body = Substring(text)
        var sign: Int64 = 1
        if body.hasPrefix("-") {
            sign = -1
            body = body.dropFirst()
        }
        let digits = body.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 12, let value = Int64(digits) else { return nil }
        let unit: Int64
        switch body.dropFirst(digits.count) {
        case "", "s": unit = 1000
        case "ms": unit = 1
        case "m": unit = 60_000
        case "h": unit = 3_600_000
        case "d": unit = 86_400_000
        default: return nil
        }
        let (product, overflow) = value.multipliedReportingOverflow(by: unit)
        return overflow ? nil : sign * product
    }

    static func days(fromYear year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
