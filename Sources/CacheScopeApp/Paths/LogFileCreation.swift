import SystemPackage

/// The demo's log file is created private (mode 0600) before the log handler opens it for
/// appending: its lines name URLs. An existing file is left as it is.
enum LogFileCreation {
    /// Creates an empty `path` with mode 0600 unless something exists there; errors are left
    /// to the log handler's own open, which reports them.
    static func createPrivately(_ path: String) {
        guard let descriptor = try? FileDescriptor.open(
            FilePath(path), .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec], permissions: .ownerReadWrite)
        else { return }
        try? descriptor.close()
    }
}
