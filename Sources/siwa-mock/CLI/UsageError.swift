/// A command-line mistake: printed with the command's usage line and a hint, exit status 64 (EX_USAGE).
struct UsageError: Error, Sendable, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}

/// A failure while running a valid command (unreadable file, port in use, …): exit status 1.
struct RuntimeError: Error, Sendable, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}
