import Foundation
import SIWACore

/// The mock's clock (`/mock/clock`): codes, tokens, client secrets and identity tokens are judged by it,
/// so a test can let a code expire without waiting five minutes.
extension AppleIDMock {
    /// Now, by the mock's clock.
    public var now: Date { Date(timeIntervalSince1970: Double(provider.clock.nowMilliseconds) / 1000) }

    /// Moves the clock by `duration` (negative goes back).
    public func advanceClock(by duration: Duration) {
        clock.advance(milliseconds: Self.milliseconds(duration))
    }

    /// Jumps to `date`.
    public func setClock(to date: Date) {
        clock.set(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }

    /// Stops time at its current value (`true`), or lets it run again from there (`false`).
    public func freezeClock(_ frozen: Bool = true) {
        clock.setFrozen(frozen)
    }

    /// Whether the clock is frozen.
    public var isClockFrozen: Bool { clock.isFrozen }

    /// The mock always runs on an `AdjustableClock` (`MockHost`).
    private var clock: any ControllableClock {
        guard let clock = provider.controllableClock else {
            preconditionFailure("MockHost always installs AdjustableClock")
        }
        return clock
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
