/// Why a JSON text could not be parsed, with the byte offset where the problem was found.
package struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    package var offset: Int
    package var message: String

    package init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    package var description: String { "JSON error at byte \(offset): \(message)" }
}
