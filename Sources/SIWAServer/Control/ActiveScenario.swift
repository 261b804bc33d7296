import JOSE
import JSON
import Locking
import SIWACore

/// Which scenario is active, for `GET /mock/scenario`: where it came from (`built-in`, a file path,
/// `PUT /mock/scenario`), its text and that text's SHA-256, and when it was loaded (mock clock).
package final class ActiveScenario: Sendable {
    /// One loaded scenario's provenance.
    package struct Record: Sendable, Equatable {
        package var source: String
        package var name: String
        package var text: String
        package var loadedAtMilliseconds: Int64

        package init(source: String, name: String, text: String, loadedAtMilliseconds: Int64) {
            self.source = source
            self.name = name
            self.text = text
            self.loadedAtMilliseconds = loadedAtMilliseconds
        }

        var json: JSONValue {
            let hex = SHA256.hash(Array(text.utf8)).map { byte in
                let digits = String(byte, radix: 16)
                return digits.count == 1 ? "0" + digits : digits
            }
            return .object(
                JSONObject([
                    ("source", .string(source)), ("name", .string(name)),
                    ("sha256", .string(hex.joined())),
                    ("loaded_at", .string(TimeText.rfc3339(milliseconds: loadedAtMilliseconds))),
                    ("text", .string(text)),
                ]))
        }
    }

    private let current: Lock<Record>

    package init(_ record: Record) {
        current = Lock(record)
    }

    package var record: Record { current.withLock { $0 } }

    /// Notes a scenario that has just become active.
    package func replace(with record: Record) {
        current.withLock { $0 = record }
    }
}
