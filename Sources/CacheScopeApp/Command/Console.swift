public import Foundation
import SystemPackage

/// Writing to standard output and standard error with calls that report failure rather than
/// trap (Foundation's `FileHandle.write(_:)` ends the process when the other end has gone).
public enum Console {
    /// Writes `bytes` to standard output.
    /// - Throws: `Errno` when the write fails (a closed pipe, a full disk).
    public static func write(_ bytes: Data) throws {
        _ = try FileDescriptor.standardOutput.writeAll(bytes)
    }

    /// Writes `text` to standard output.
    /// - Throws: `Errno` when the write fails.
    public static func write(_ text: String) throws {
        _ = try FileDescriptor.standardOutput.writeAll(text.utf8)
    }

    /// Writes the summary a headless command prints as it ends, stopped by `signal` (`nil`:
    /// it ended by itself). After SIGHUP the terminal is gone: the summary has nowhere to go,
    /// which is no failure (the recording, if any, is already complete).
    /// - Throws: `Errno` when the write fails for another reason.
    public static func writeSummary(_ text: String, endedBy signal: Int32?) throws {
        do {
            try write(text)
        } catch where signal == SIGHUP {
            return
        }
    }

    /// Writes `text` to standard error; a failure is ignored, as there is nowhere left to say so.
    public static func writeError(_ text: String) {
        _ = try? FileDescriptor.standardError.writeAll(text.utf8)
    }
}
