import CacheEvents
import SessionLog

/// A `result` line: the answer to one command line, or the complaint about a line that was not
/// a valid command (then `succeeded` is false and `id` is present only if it could be read).
///
/// `{"type":"result","id":7,"succeeded":true,"message":"purged 2 entries"}`
struct CommandReply: Sendable, Hashable, Codable {
    /// The `id` of the command line answered.
    var id: Int?
    /// Whether the command did what was asked.
    var succeeded: Bool
    /// What happened, or what was wrong with the line.
    var message: String

    init(id: Int?, succeeded: Bool, message: String) {
        self.id = id
        self.succeeded = succeeded
        self.message = message
    }

    init(id: Int, result: CommandResult) {
        self.init(id: id, succeeded: result.succeeded, message: result.message)
    }

    /// The result as the command's caller sees it.
    var result: CommandResult { CommandResult(succeeded: succeeded, message: message) }
}
