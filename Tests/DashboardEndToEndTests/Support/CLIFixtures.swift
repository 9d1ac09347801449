import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Inputs for the command-line tests, written by hand so each figure is known.
enum CLIFixtures {
    /// A session log of two requests for one URL: a miss, then a fresh hit.
    static let sessionLog = """
        {"format":"cachescope-session","version":1,"startedAt":"2026-01-05T10:00:00.000Z","redacted":true,"producer":"cachescope 0.1.0"}
        {"seq":1,"t":1,"req":1,"kind":"requestStarted","method":"GET","url":"https://api.example/a","cacheKey":"GET https://api.example/a","policy":"protocol","headers":[]}
        {"seq":2,"t":1.0001,"req":1,"kind":"lookup","verdict":"miss","reason":"not in cache"}
        {"seq":3,"t":1.03,"req":1,"kind":"served","source":"network","status":200,"bytes":100,"outcome":"miss","reason":"not in cache","age":0,"ttl":60,"headers":[{"name":"Cache-Control","value":"max-age=60"}]}
        {"seq":4,"t":1.0301,"req":1,"kind":"stored","entry":{"key":"GET https://api.example/a","variant":""},"tier":"both","size":300,"ttl":60,"status":200}
        {"seq":5,"t":1.0302,"req":1,"kind":"requestFinished","status":200,"latency":0.03,"bytesFromNetwork":100,"bytesFromCache":0,"outcome":"miss","reason":"not in cache","coalesced":false}
        {"seq":6,"t":2,"req":2,"kind":"requestStarted","method":"GET","url":"https://api.example/a","cacheKey":"GET https://api.example/a","policy":"protocol","headers":[]}
        {"seq":7,"t":2.0001,"req":2,"kind":"lookup","verdict":"fresh","reason":"max-age=60","age":1,"ttl":59}
        {"seq":8,"t":2.0002,"req":2,"kind":"served","source":"cache","status":200,"bytes":100,"outcome":"hit","reason":"max-age=60","age":1,"ttl":59,"headers":[{"name":"Cache-Control","value":"max-age=60"}]}
        {"seq":9,"t":2.0003,"req":2,"kind":"requestFinished","status":200,"latency":0.0003,"bytesFromNetwork":0,"bytesFromCache":100,"outcome":"hit","reason":"max-age=60","coalesced":false}

        """

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
