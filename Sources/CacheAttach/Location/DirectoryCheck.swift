/// The rule for a directory that holds attach sockets: a real directory (not a symbolic link),
/// owned by the current user, with no permissions for group or others. Anyone else who could
/// write there could plant a socket for a dashboard to trust or a link for a server to follow.
enum DirectoryCheck {
    /// The permissions a socket directory is created with.
    static let permissions: UInt32 = 0o700

    /// Checks an existing directory; throws naming the path and the problem.
    static func verify(_ path: String) throws(AttachError) {
        guard let status = try FileSystem.status(of: path) else { throw .missingDirectory(path: path) }
        try check(status, path: path, userID: FileSystem.effectiveUserID)
    }

    /// Creates the directory (mode `0700`) when it is missing, then checks it.
    static func prepare(_ path: String) throws(AttachError) {
        try FileSystem.makeDirectory(path, permissions: permissions)
        try verify(path)
    }

    /// Throws when `status` makes the directory unfit to hold sockets for `userID`.
    static func check(_ status: FileStatus, path: String, userID: UInt32) throws(AttachError) {
        switch status.kind {
        case .symbolicLink:
            throw .symbolicLink(path: path)
        case .directory:
            break
        default:
            throw .unsafeDirectory(path: path, problem: "it is not a directory; remove it or choose another path")
        }
        if status.owner != userID {
            throw .unsafeDirectory(
                path: path,
                problem: "it is owned by user ID \(status.owner), not by you (user ID \(userID)); "
                    + "remove it or choose another path"
            )
        }
        if status.permissions & 0o077 != 0 {
            throw .unsafeDirectory(
                path: path,
                problem: "its permissions are \(octal(status.permissions)) but must give group and others no access "
                    + "(0700); run `chmod 700 \(path)`"
            )
        }
    }

    /// `0o755` as `0755`.
    static func octal(_ permissions: UInt32) -> String {
        let digits = String(permissions, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
