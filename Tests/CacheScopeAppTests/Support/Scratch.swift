import Foundation
import TestFixtures
#if canImport(Glibc)
import Glibc
#endif

/// A temporary directory for one test, removed when the test lets go of it, with helpers for
/// the kinds of paths the path checks meet.
final class Scratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cachescope-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `bytes` to `name` and returns its path.
    @discardableResult
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Writes `text` to `name` and returns its path.
    @discardableResult
    func file(_ name: String, _ text: String) throws -> String {
        try file(name, Array(text.utf8))
    }

    /// Makes the directory `name` and returns its path.
    @discardableResult
    func directory(_ name: String) throws -> String {
        let path = path(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The names in the directory, sorted (hidden ones too).
    func names(in directory: String? = nil) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory ?? url.path).sorted()
    }

    /// The permission bits of `path` (`stat`).
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o777
    }

    /// Binary garbage: NUL bytes and bytes that are not UTF-8.
    static let garbage: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0xFF, 0xFE, 0x00, 0x00, 0xC3, 0x28, 0x9A]

    /// A small, valid session log: a miss, then a hit.
    static let sessionLog = SessionLogFixtures.missThenHit

    /// A HAR capture of one private response requested twice, 10 s apart, pretty-printed as
    /// DevTools saves it.
    static let harCapture = """
        {
          "log": {
            "version": "1.2",
            "creator": {"name": "WebInspector", "version": "537.36"},
            "entries": [\(harEntry("10:00:00.000")), \(harEntry("10:00:10.000"))]
          }
        }

        """

    private static func harEntry(_ time: String) -> String {
        """
        {"startedDateTime": "2026-01-05T\(time)Z", "time": 12.5,
         "request": {"method": "GET", "url": "https://shop.example/profile", "httpVersion": "h2", "headers": [],
                     "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
         "response": {"status": 200, "statusText": "OK", "httpVersion": "h2",
                      "headers": [{"name": "Cache-Control", "value": "private, max-age=60"}, {"name": "ETag", "value": "\\"p1\\""}],
                      "cookies": [], "content": {"size": 7, "mimeType": "text/plain", "text": "profile"},
                      "redirectURL": "", "headersSize": -1, "bodySize": -1},
         "cache": {}, "timings": {"send": 1, "wait": 10, "receive": 1.5}}
        """
    }
}
