import Foundation
import TestFixtures
#if canImport(Glibc)
import Glibc
#endif

/// Inputs for the command-line tests, written by hand so each figure is known.
enum CLIFixtures {
    /// A session log of two requests for one URL: a miss, then a fresh hit.
    static let sessionLog = SessionLogFixtures.missThenHit

    /// ``sessionLog`` written to `directory/name`; its path.
    static func sessionLogFile(in directory: TemporaryDirectory, name: String = "session.jsonl") throws -> String {
        let path = directory.path(name)
        try sessionLog.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// A HAR capture, pretty-printed as DevTools saves it: one `private, max-age=60` response
    /// requested twice 10 s apart (a private cache hits the second time, a shared one cannot),
    /// and one `public, max-age=60` response requested twice (a hit either way).
    static let harCapture = """
        {
          "log": {
            "version": "1.2",
            "creator": {"name": "WebInspector", "version": "537.36"},
            "entries": [
              \(harEntry("10:00:00.000", "/profile", "private, max-age=60")),
              \(harEntry("10:00:01.000", "/logo.png", "public, max-age=60")),
              \(harEntry("10:00:10.000", "/profile", "private, max-age=60")),
              \(harEntry("10:00:11.000", "/logo.png", "public, max-age=60"))
            ]
          }
        }

        """

    private static func harEntry(_ time: String, _ path: String, _ cacheControl: String) -> String {
        """
        {"startedDateTime": "2026-01-05T\(time)Z", "time": 12.5,
               "request": {"method": "GET", "url": "https://shop.example\(path)", "httpVersion": "h2", "headers": [],
                           "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
               "response": {"status": 200, "statusText": "OK", "httpVersion": "h2",
                            "headers": [{"name": "Cache-Control", "value": "\(cacheControl)"}],
                            "cookies": [], "content": {"size": 4, "mimeType": "text/plain", "text": "body"},
                            "redirectURL": "", "headersSize": -1, "bodySize": -1},
               "cache": {}, "timings": {"send": 1, "wait": 10, "receive": 1.5}}
        """
    }

    /// The permission bits of `path`.
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o777
    }

    /// Files left in `directory` that look like a staged output (`.NAME.RANDOM.tmp`).
    static func temporaryFiles(in directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix(".") && $0.hasSuffix(".tmp") }
    }
}
