#if canImport(Glibc)
    import Glibc
#endif

extension ScenarioFile {
    /// What to add to "cannot read PATH" when `path` does not exist: the nearest name beside it ("did you
    /// mean 'scenario.yaml'?") and, when the path came from an environment variable, that variable, since
    /// the command line shows no path at all. Empty when the file exists.
    static func missingFileHints(_ path: String, source: String) -> [String] {
        guard stamp(path) == nil else { return [] }
        var hints: [String] = []
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let beside = entries(of: directory.isEmpty ? "." : directory)
        if let nearest = EditDistance.closest(to: name, among: beside, maximum: max(1, min(3, name.count / 3))) {
            let candidate = directory.isEmpty ? nearest : "\(directory)/\(nearest)"
            hints.append("  did you mean '\(candidate)'?")
        }
        if !source.hasPrefix("--") {
            hints.append("  (the path came from the environment variable \(source))")
        }
        return hints
    }

    /// The names in `directory` (at most 1,000 looked at), without `.` and `..`; empty if unreadable.
    private static func entries(of directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while names.count < 1000, let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
