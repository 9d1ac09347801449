import Foundation
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
    static let sessionLog = """
        {"format":"cachescope-session","version":1,"startedAt":"2026-01-05T10:00:00.000Z","redacted":true,"producer":"cachescope 0.1.0"}
        {"seq":1,"t":1.0,"req":1,"kind":"requestStarted","method":"GET","url":"https://api.example/a","cacheKey":"GET https://api.example/a","policy":"protocol","headers":[]}
        {"seq":2,"t":1.0001,"req":1,"kind":"lookup","verdict":"miss","reason":"not in cache"}
        {"seq":3,"t":1.03,"req":1,"kind":"served","source":"network","status":200,"bytes":100,"outcome":"miss","reason":"not in cache","age":0,"ttl":60,"headers":[{"name":"Cache-Control","value":"max-age=60"}]}
        {"seq":4,"t":1.0301,"req":1,"kind":"stored","entry":{"key":"GET https://api.example/a","variant":""},"tier":"both","size":300,"ttl":60,"status":200}
        {"seq":5,"t":1.0302,"req":1,"kind":"requestFinished","status":200,"latency":0.03,"bytesFromNetwork":100,"bytesFromCache":0,"outcome":"miss","reason":"not in cache","coalesced":false}
        {"seq":6,"t":2.0,"req":2,"kind":"requestStarted","method":"GET","url":"https://api.example/a","cacheKey":"GET https://api.example/a","policy":"protocol","headers":[]}
        {"seq":7,"t":2.0001,"req":2,"kind":"lookup","verdict":"fresh","reason":"max-age=60","age":1,"ttl":59}
        {"seq":8,"t":2.0002,"req":2,"kind":"served","source":"cache","status":200,"bytes":100,"outcome":"hit","reason":"max-age=60","age":1,"ttl":59,"headers":[{"name":"Cache-Control","value":"max-age=60"}]}
        {"seq":9,"t":2.0003,"req":2,"kind":"requestFinished","status":200,"latency":0.0003,"bytesFromNetwork":0,"bytesFromCache":100,"outcome":"hit","reason":"max-age=60","coalesced":false}

        """

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
