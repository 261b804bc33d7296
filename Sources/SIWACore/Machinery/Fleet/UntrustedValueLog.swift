import Locking

/// Reports values read back from the shared store that fail validation (docs/scale-out.md, "Redis is
/// not trusted"): the value is ignored and each distinct report is logged once, so a bad key polled
/// every 250 ms does not flood the log. At most `capacity` distinct reports are remembered.
package final class UntrustedValueLog: Sendable {
    let log: @Sendable (String) -> Void
    let reported = Lock<Set<String>>([])
    let capacity: Int

    package init(capacity: Int = 256, log: @escaping @Sendable (String) -> Void) {
        self.capacity = capacity
        self.log = log
    }

    /// Logs `"shared store: ignored <what> '<value>': <why>"` unless the same report was logged before;
    /// the value is cut to 80 characters.
    package func ignored(_ what: String, _ value: String, because why: String) {
        let shown = value.count > 80 ? String(value.prefix(80)) + "…" : value
        let message = "shared store: ignored \(what) '\(shown)': \(why)"
        let isNew = reported.withLock { reported -> Bool in
            guard reported.count < capacity || reported.contains(message) else { return false }
            return reported.insert(message).inserted
        }
        if isNew { log(message) }
    }
}
