import JOSE
import Locking
import ScenarioModel

/// RSA-2048 signing keys generated ahead of time, so that no event-loop thread ever generates one
/// (70–470 ms each: twelve keys generated on a loop stalled health checks for 2–4 s, issue #11).
///
/// A background thread owned by the executable calls `refill()`; `POST /mock/keys/rotate` and
/// scenarios sent over HTTP run off the event loop and `take(makingOneIfNoneReady: true)`: a ready key,
/// else one made on their own (background) thread, so a rotation right after start waits for one key
/// generation instead of being refused. SIWACore starts no thread: this type only holds the keys and
/// makes them when asked.
///
/// Keys are made on demand: nothing is generated until the first `take()` asks (most runs never rotate
/// a key, and four RSA key generations at start-up cost 0.3–2 s of CPU, more than everything else a
/// sidecar does while starting); from then on `capacity` keys are kept ready.
package final class SigningKeySupply: SigningKeySource {
    /// Keys kept ready (each PKCS#8 PEM is ~1.7 kB).
    package let capacity: Int
    private let ready: Lock<[String]>
    /// Set by the first `take()`: from then on `refill()` keeps `capacity` keys ready.
    private let demanded: Lock<Bool>
    /// Set by `stop()`: `refill()` makes no further key.
    private let stopped: Lock<Bool>
    private let generate: @Sendable () -> String?

    /// - Parameters:
    ///   - capacity: keys kept ready (1…16).
    ///   - generate: makes one key's PEM (tests inject a fixed key to count calls).
    package init(capacity: Int = 4, generate: @escaping @Sendable () -> String? = SigningKeySupply.freshKeyPEM) {
        self.capacity = min(max(capacity, 1), 16)
        self.ready = Lock([])
        self.demanded = Lock(false)
        self.stopped = Lock(false)
        self.generate = generate
    }

    /// One ready key's PEM, or nil when the background thread has not made one yet.
    package func take() -> String? {
        demanded.withLock { $0 = true }
        return ready.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    /// A ready key, or with `makingOneIfNoneReady` one generated on the calling thread (70–470 ms; only
    /// off an event loop); nil when none is ready and none may be made, or generation failed.
    package func take(makingOneIfNoneReady: Bool) -> String? {
        if let ready = take() { return ready }
        guard makingOneIfNoneReady else { return nil }
        return generate()
    }

    /// Starts keeping keys ready without taking one (tests, or a server that knows it will rotate).
    package func prime() {
        demanded.withLock { $0 = true }
    }

    /// How many keys are ready now.
    package var readyCount: Int { ready.withLock { $0.count } }

    /// Ends `refill()` after the key being made, if any: a host that stops waits for one key at most
    /// (70–470 ms), not for `capacity` of them. A process that exits while a thread is inside
    /// libcrypto's key generation can crash in OpenSSL's exit-time cleanup (seen as SIGSEGV at the exit
    /// of a test process that had rotated a key and shut its mock down).
    package func stop() {
        stopped.withLock { $0 = true }
    }

    /// Generates keys (outside the lock) until `capacity` are ready or `stop()` is called. Call it from
    /// a background thread.
    /// - Returns: how many keys were made.
    @discardableResult
    package func refill() -> Int {
        guard demanded.withLock({ $0 }) else { return 0 }
        var made = 0
        while readyCount < capacity, !stopped.withLock({ $0 }), let pem = generate() {
            ready.withLock { if $0.count < capacity { $0.append(pem) } }
            made += 1
        }
        return made
    }

    /// A fresh RSA-2048 key as PKCS#8 PEM, or nil if OpenSSL failed.
    package static let freshKeyPEM: @Sendable () -> String? = {
        (try? RSAPrivateKey.generate(bits: 2048)).map { ScenarioLoader.trimmed($0.pemPKCS8()) }
    }
}
