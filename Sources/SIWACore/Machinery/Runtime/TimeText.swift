/// Time written for people by the control API: RFC 3339 timestamps with milliseconds. Reading time
/// text (durations, timestamps) is ScenarioFormat's `TimeSyntax`, the one grammar for every front door.
///
/// No Foundation (startup cost: bench/RESULTS.md, exec → first 200); civil-date arithmetic after
/// H. Hinnant's algorithms.
package enum TimeText {
    /// The latest time the control API accepts: 9999-12-31T23:59:59.999Z (RFC 3339 has 4-digit years).
    package static let maximumMilliseconds: Int64 = 253_402_300_799_999

    /// `2026-11-29T13:04:08.123Z` (UTC, milliseconds).
    package static func rfc3339(milliseconds: Int64) -> String {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let millis = milliseconds - seconds * 1000
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = seconds - days * 86400
        let (year, month, day) = civil(fromDays: days)
        guard (0...9999).contains(year) else {
            func pad(_ value: Int64, _ width: Int) -> String {
                let text = String(value)
                return String(repeating: "0", count: max(0, width - text.count)) + text
            }
            return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
                + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(millis, 3))Z"
        }
        // Every field has a fixed width: the 24 bytes are written in place (the request log stamps every
        // batch of lines with this, and interpolating padded pieces cost ~7k instructions a call).
        return String(unsafeUninitializedCapacity: 24) { bytes in
            func put(_ value: Int64, width: Int, at offset: Int) {
                var rest = value
                for index in stride(from: offset + width - 1, through: offset, by: -1) {
                    bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
            put(year, width: 4, at: 0)
            bytes[4] = UInt8(ascii: "-")
            put(month, width: 2, at: 5)
            bytes[7] = UInt8(ascii: "-")
            put(day, width: 2, at: 8)
            bytes[10] = UInt8(ascii: "T")
            put(secondOfDay / 3600, width: 2, at: 11)
            bytes[13] = UInt8(ascii: ":")
            put(secondOfDay / 60 % 60, width: 2, at: 14)
            bytes[16] = UInt8(ascii: ":")
            put(secondOfDay % 60, width: 2, at: 17)
            bytes[19] = UInt8(ascii: ".")
            put(millis, width: 3, at: 20)
            bytes[23] = UInt8(ascii: "Z")
            return 24
        }
    }

    /// `Tue, 01 Dec 2026 04:00:00 +0000`: the date-time of mail header fields (RFC 5322 §3.3), UTC.
    package static func rfc5322(milliseconds: Int64) -> String {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = seconds - days * 86400
        let (year, month, day) = civil(fromDays: days)
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func pad(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        return "\(weekday), \(pad(day)) \(months[Int(month - 1)]) \(year) \(pad(secondOfDay / 3600)):"
            + "\(pad(secondOfDay / 60 % 60)):\(pad(secondOfDay % 60)) +0000"
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
