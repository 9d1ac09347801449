import TerminalUI
public import Foundation
public import SystemPackage

/// Writing to standard output and standard error with calls that report failure rather than
/// trap (Foundation's `FileHandle.write(_:)` ends the process when the other end has gone).
public enum Console {
    /// Why standard output could not be written: `cannot write to standard output: no space
    /// left on device` rather than the bare system text, which names nothing.
    public struct WriteFailed: Error, Sendable, Hashable, CustomStringConvertible {
        /// The system's error.
        public var error: Errno

        /// One sentence.
        public var description: String {
            let text = error.description
            return "cannot write to standard output: " + text.prefix(1).lowercased() + text.dropFirst()
        }
    }

    /// Writes `bytes` to standard output.
    /// - Throws: ``WriteFailed`` when the write fails (a closed pipe, a full disk).
    public static func write(_ bytes: Data) throws {
        do {
            _ = try FileDescriptor.standardOutput.writeAll(bytes)
        } catch let error as Errno {
            throw WriteFailed(error: error)
        }
    }

    /// Writes `text` to standard output.
    /// - Throws: ``WriteFailed`` when the write fails.
    public static func write(_ text: String) throws {
        do {
            _ = try FileDescriptor.standardOutput.writeAll(text.utf8)
        } catch let error as Errno {
            throw WriteFailed(error: error)
        }
    }

    /// Writes the summary a headless command prints as it ends, stopped by `signal` (`nil`:
    /// it ended by itself). After SIGHUP the terminal is gone: the summary has nowhere to go,
    /// which is no failure (the recording, if any, is already complete).
    /// - Throws: ``WriteFailed`` when the write fails for another reason.
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

    /// Writes `cachescope: MESSAGE` and a line break to standard error, with the message's
    /// control characters (from a log, a filter, a server) written as escapes (`\e`), as every
    /// failure line is (``CommandFailure``): none acts on the terminal.
    public static func warn(_ message: String) {
        writeError("cachescope: " + SafeText.escape(message.split(whereSeparator: \.isNewline).joined(separator: " "), backslashes: false) + "\n")
    }
}
