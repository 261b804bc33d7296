extension TimeSyntax {
    /// A duration as the grammar writes it (`durationMilliseconds` reads it back): largest units first,
    /// each at most once, zero parts left out: 90000 → `1m30s`, 1500 → `1s500ms`, 300 → `300ms`,
    /// 0 → `0s`, -172800000 → `-2d`.
    package static func durationText(milliseconds: Int64) -> String {
        guard milliseconds != 0 else { return "0s" }
        let units: [(name: String, milliseconds: Int64)] = [
            ("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1),
        ]
        // `magnitude` keeps Int64.min from trapping; every part fits back in Int64.
        var rest = milliseconds.magnitude
        var text = milliseconds < 0 ? "-" : ""
        for unit in units where rest >= UInt64(unit.milliseconds) {
            text += "\(rest / UInt64(unit.milliseconds))\(unit.name)"
            rest %= UInt64(unit.milliseconds)
        }
        return text
    }
}
