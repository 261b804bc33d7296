import Mailbox

extension MailpitSearch {
    /// `text` parsed; a refusal is the control API's 400 naming the `query` parameter.
    static func parsing(query text: String) throws(ControlFailure) -> MailpitSearch {
        do throws(Failure) {
            return try MailpitSearch(parsing: text)
        } catch {
            throw .invalid("query", error.message)
        }
    }
}
