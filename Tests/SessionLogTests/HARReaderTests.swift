import TestFixtures
import CacheEvents
import SessionLog
import Foundation
import Testing
import HTTPTypes

@Suite("HAR reader")
struct HARReaderTests {
    static var fixturePath: String {
        get throws {
            let url = try #require(Bundle.module.url(forResource: "devtools-capture", withExtension: "har", subdirectory: "Fixtures"))
            return url.path
        }
    }

    private func loadError(_ path: String) -> HARError? {
        thrownError { () throws(HARError) in _ = try HARReader.load(path) }
    }

    @Test("a DevTools capture: pages, entries, custom fields ignored")
    func devToolsCapture() throws {
        let archive = try HARReader.load(try Self.fixturePath)
        #expect(archive.log.version == "1.2")
        #expect(archive.log.creator == HARCreator(name: "WebInspector", version: "537.36"))
        #expect(archive.log.pages?.first?.pageTimings?.onLoad == 980.51)
        #expect(archive.log.entries.count == 3)
        let first = archive.log.entries[0]
        #expect(first.request.method == "GET")
        #expect(first.request.url == "https://api.example.com/v1/items/42?fields=summary&lang=en")
        #expect(first.request.queryString == [HARNameValue(name: "fields", value: "summary"), HARNameValue(name: "lang", value: "en")])
        #expect(first.response.status == 200)
        #expect(first.response.content.text == #"{"id":42,"name":"Café au lait","price":3.5,"stock":true}"#)
        #expect(first.cache == HARCache())
        #expect(first.timings.dns == -1 && first.timings.wait == 84.23)
        #expect(first.serverIPAddress == "203.0.113.10")
        #expect(first.cacheStatus == nil)
        #expect(first.startDate == ISO8601Timestamp.date(from: "2025-11-22T09:14:03.512Z"))
        let second = archive.log.entries[1]
        #expect(second.request.cookies.map(\.name) == ["consent", "session"])
        #expect(second.request.cookies[1].expires == nil && second.request.cookies[1].sameSite == "Lax")
        let post = archive.log.entries[2]
        #expect(post.request.postData?.params?.count == 2)
        #expect(post.response.redirectURL == "/cart/view")
    }

    @Test("replay requests: start order, offsets, decoded bodies, no pseudo-headers")
    func replayRequests() throws {
        let requests = try HARReader.load(try Self.fixturePath).replayRequests()
        #expect(requests.map(\.entryIndex) == [0, 2, 1])
        #expect(requests.map { ($0.offset * 1000).rounded() } == [0, 138, 188])
        let api = requests[0]
        #expect(api.method == "GET")
        #expect(api.requestHeaders.map(\.name.rawName) == ["accept", "accept-language", "if-none-match", "user-agent"])
        #expect(api.responseBody == Data(#"{"id":42,"name":"Café au lait","price":3.5,"stock":true}"#.utf8))
        #expect(api.responseHeaders.first { $0.name.rawName == "etag" }?.value == "\"v7-42\"")
        #expect(abs(api.duration - 0.0874120000004) < 1e-12)
        #expect(api.timings.total == 1.731 + 0.118 + 84.23 + 1.333)
        let image = requests[2]
        let png = try #require(image.responseBody)
        #expect(png.count == 70 && image.responseBodySize == 70)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let post = requests[1]
        #expect(post.requestBody == Data("item=42&qty=1".utf8))
        #expect(post.status == 303 && post.statusText == "See Other")
        #expect(post.responseBody == nil, "no body was saved")
    }

    @Test("missing file, directory, empty file")
    func fileProblems() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.file("none.har")
        #expect(loadError(missing) == .fileNotFound(file: missing))
        #expect(loadError(directory.path)?.description == "\(directory.path): is a directory, not a HAR file")
        let empty = try directory.write("empty.har", "  \n")
        #expect(loadError(empty)?.description == "\(empty): empty file, not a HAR")
    }

    @Test("not JSON: the line and column of the problem")
    func notJSON() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("broken.har", "{\n  \"log\": {\n    \"entries\": [\n      {\"startedDateTime\": 'x'}\n    ]\n  }\n}\n")
        #expect(loadError(path) == .notJSON(file: path, line: 4, column: 27, detail: "unexpected character '''"))
        #expect(loadError(path)?.description == "\(path):4: not JSON (unexpected character ''' at column 27)")
        let cut = try directory.write("cut.har", "{\n  \"log\": {\n    \"entries\": [\n")
        #expect(loadError(cut)?.description == "\(cut):4: not JSON (unexpected end of input at column 1)")
    }

    @Test("JSON that is not a HAR", arguments: [
        ("array.har", "[1, 2]", 1, "the top level is not an object"),
        ("nolog.har", "{\n  \"entries\": []\n}", 1, #"no "log" object"#),
        ("badlog.har", "{\n  \"log\": \"yes\"\n}", 2, #""log" is not an object"#),
    ])
    func notHAR(name: String, contents: String, line: Int, why: String) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(name, contents)
        #expect(loadError(path)?.description == "\(path):\(line): not a HAR file (\(why))")
    }

    @Test("a missing or mistyped field: its path and line")
    func invalidFields() throws {
        let directory = try TemporaryDirectory()
        let entry = """
            {"startedDateTime": "2025-11-22T09:14:03.512Z", "time": 1,
                "response": {"status": 200, "content": {"size": 0, "mimeType": "text/plain"}},
        """
        let noURL = try directory.write("nourl.har", "{\"log\": {\"entries\": [\n" + entry + "\n    \"request\": {\n      \"method\": \"GET\"\n    }\n  }\n]}}")
        #expect(loadError(noURL)?.description == "\(noURL):4: missing field \"log.entries[0].request.url\"")
        let badStatus = try directory.write("status.har", """
            {"log": {"entries": [
              {"startedDateTime": "2025-11-22T09:14:03.512Z",
               "request": {"method": "GET", "url": "https://x/"},
               "response": {"status": "200"}}
            ]}}
            """)
        #expect(loadError(badStatus)?.description == "\(badStatus):4: field \"log.entries[0].response.status\" should be a number")
    }

    @Test("a time or duration no capture holds (1e23 ms, a timing of -1e16) is named by its field, not read into a date that cannot be made", arguments: [
        (#""time": 1e23,"#, #""timings": {"send": 0, "wait": 1, "receive": 0},"#, "log.entries[0].time\" is 1e+23"),
        (#""time": 5,"#, #""timings": {"send": 0, "wait": -1e16, "receive": 0},"#, "log.entries[0].timings.wait\" is -1e+16"),
    ])
    func impossibleTimes(time: String, timings: String, problem: String) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("times.har", """
            {"log": {"entries": [
              {"startedDateTime": "2025-11-22T09:14:03Z", \(time) \(timings)
               "request": {"method": "GET", "url": "https://x/"},
               "response": {"status": 200}}
            ]}}
            """)
        let description = loadError(path)?.description ?? ""
        #expect(description.contains("field \"\(problem), beyond any time or duration a capture holds (at most 1e15 either side of zero)"), "\(description)")
    }

    @Test("a start time that is not ISO 8601, and bad base64")
    func invalidValues() throws {
        let directory = try TemporaryDirectory()
        let badDate = try directory.write("date.har", """
            {"log": {"entries": [
              {"startedDateTime": "22/11/2025 09:14",
               "request": {"method": "GET", "url": "https://x/"},
               "response": {"status": 200}}
            ]}}
            """)
        #expect(loadError(badDate)?.description == "\(badDate):2: log.entries[0].startedDateTime is not an ISO 8601 time (\"22/11/2025 09:14\")")
        let badBase64 = try directory.write("base64.har", """
            {"log": {"entries": [
              {"startedDateTime": "2025-11-22T09:14:03Z",
               "request": {"method": "GET", "url": "https://x/"},
               "response": {"status": 200,
                 "content": {"size": 3, "mimeType": "image/png",
                   "text": "not*base64!", "encoding": "base64"}}}
            ]}}
            """)
        #expect(loadError(badBase64)?.description == "\(badBase64):6: log.entries[0].response.content.text is marked base64 but is not valid base64")
    }

    @Test("tolerant: minimal entries read with defaults; a UTF-8 BOM is skipped")
    func minimal() throws {
        let directory = try TemporaryDirectory()
        let text = #"{"log":{"entries":[{"startedDateTime":"2025-11-22T09:14:03Z","request":{"method":"GET","url":"https://x/"},"response":{"status":204}}]}}"#
        let path = try directory.write("minimal.har", bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8))
        let archive = try HARReader.load(path)
        let entry = try #require(archive.log.entries.first)
        #expect(archive.log.version == "1.2" && archive.log.creator.name == "")
        #expect(entry.time == 0 && entry.request.headers.isEmpty && entry.request.headersSize == -1)
        #expect(entry.response.content == HARContent(size: 0, mimeType: ""))
        #expect(entry.cache.beforeRequest == .unknown)
        #expect(archive.replayRequests().first?.responseBody == nil)
    }
}
