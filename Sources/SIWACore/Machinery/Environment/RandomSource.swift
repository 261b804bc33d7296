import JOSE
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// Where secrets (codes, tokens) and one-off identifiers get their randomness. Injected so unit tests
/// can be reproducible; the server always uses ``SystemRandomSource`` — a scenario's `seed:` never
/// reaches it (see ``IdentifierGenerator``).
package protocol RandomSource: Sendable {
    /// The next 64 uniformly distributed bits.
    func next() -> UInt64
    /// `count` bytes drawn uniformly from `alphabet` (at most 256 entries). By default one `next(below:)`
    /// per byte, so a seeded source's sequence stays what tests expect; the system source spends a
    /// random byte, not a word, per draw.
    func draw(_ count: Int, from alphabet: [UInt8]) -> [UInt8]
}

extension RandomSource {
    /// A uniform value in `0..<upperBound` (rejection sampling, no modulo bias).
    package func next(below upperBound: UInt64) -> UInt64 {
        precondition(upperBound > 0, "upperBound must be positive")
        let limit = UInt64.max - (UInt64.max % upperBound)
        while true {
            let value = next()
            if value < limit { return value % upperBound }
        }
    }

    package func draw(_ count: Int, from alphabet: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for _ in 0..<count { bytes.append(alphabet[Int(next(below: UInt64(alphabet.count)))]) }
        return bytes
    }

    /// `count` random bytes.
    package func bytes(_ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        while out.count < count {
            var word = next()
            for _ in 0..<8 where out.count < count {
                out.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return out
    }
}

/// A cryptographically secure generator (the server's, with or without `seed:`): OpenSSL's
/// DRBG, drawn 512 bytes at a time. `SystemRandomNumberGenerator` makes one `getrandom(2)` call per
/// 8 bytes, which showed up as ~6 % of a token request's CPU in a profile; one `RAND_bytes` call per
/// value still cost ~0.5 µs each. Every value is handed out once.
///
/// Each thread draws from a pool of its own (a thread-local slot, no lock): with a shared store, up to
/// eight store workers mint tokens at once, and one pool behind a lock had them spinning in its lock
/// for ~40 % of a Redis-store redemption's CPU (bench/RESULTS.md, "Redis throughput").
package final class SystemRandomSource: RandomSource {
    /// 64 words, then the index of the next unused one. A raw buffer rather than stored properties, so
    /// a draw makes no exclusivity check (they were most of a draw's cost: a token draws ~80 values).
    final class Pool {
        static let size = 64
        let slots: UnsafeMutablePointer<UInt64>

        init() {
            slots = .allocate(capacity: Self.size + 1)
            slots.initialize(repeating: 0, count: Self.size)
            (slots + Self.size).initialize(to: UInt64(Self.size))
        }

        deinit { slots.deallocate() }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in
            if let raw { Unmanaged<Pool>.fromOpaque(raw).release() }
        }
        return key
    }()

    package init() {}

    /// This thread's pool, made on its first draw (freed when the thread ends).
    static var pool: Pool {
        if let raw = pthread_getspecific(key) { return Unmanaged<Pool>.fromOpaque(raw).takeUnretainedValue() }
        let pool = Pool()
        pthread_setspecific(key, Unmanaged.passRetained(pool).toOpaque())
        return pool
    }

    package func next() -> UInt64 {
        let slots = Self.pool.slots
        var index = Int(slots[Pool.size])
        if index == Pool.size {
            SecureRandom.fill(UnsafeMutableRawBufferPointer(start: slots, count: Pool.size * 8))
            index = 0
        }
        let value = slots[index]
        slots[index] = 0
        slots[Pool.size] = UInt64(index + 1)
        return value
    }

    /// Rejection sampling a byte at a time: a byte below the largest multiple of the alphabet's size
    /// that fits in 256 maps to `byte % size` without bias. A 36-character token spends ~5 words, not 36.
    package func draw(_ count: Int, from alphabet: [UInt8]) -> [UInt8] {
        precondition(!alphabet.isEmpty && alphabet.count <= 256, "alphabet of 1 to 256 bytes")
        let size = alphabet.count
        let limit = 256 - 256 % size
        var out: [UInt8] = []
        out.reserveCapacity(count)
        while out.count < count {
            var word = next()
            for _ in 0..<8 where out.count < count {
                let byte = Int(word & 0xFF)
                word >>= 8
                if byte < limit { out.append(alphabet[byte % size]) }
            }
        }
        return out
    }
}

/// A reproducible generator: ``SplitMix64`` behind a lock.
///
/// Not cryptographically secure: only for tests that inject it. Never fed a scenario's `seed:` — that
/// made every replica of a fleet mint the same codes and tokens (docs/scale-out.md).
package final class SeededRandomSource: RandomSource {
    private let generator: Lock<SplitMix64>

    package init(seed: UInt64) {
        generator = Lock(SplitMix64(seed: seed))
    }

    package func next() -> UInt64 {
        generator.withLock { $0.next() }
    }
}
