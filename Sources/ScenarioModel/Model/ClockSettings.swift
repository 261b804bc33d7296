/// The mock clock at startup (`clock:` in a scenario file).
package struct ClockSettings: Sendable, Equatable {
    /// Start time in milliseconds since the epoch; nil starts at the real time.
    package var startMilliseconds: Int64?
    /// Whether time stands still until the control API (or a test) moves it.
    package var frozen: Bool

    package init(startMilliseconds: Int64? = nil, frozen: Bool = false) {
        self.startMilliseconds = startMilliseconds
        self.frozen = frozen
    }
}
