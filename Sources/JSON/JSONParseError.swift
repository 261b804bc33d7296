/// Why a JSON text could not be parsed, with the byte offset where the problem was found.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { "JSON error at byte \(offset): \(message)" }
}
