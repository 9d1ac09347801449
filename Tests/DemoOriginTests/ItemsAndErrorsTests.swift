import Foundation
import Testing

@testable import DemoOrigin

@Suite("/items versions, unsafe methods and bad input", .timeLimit(.minutes(2)))
struct ItemsAndErrorsTests {
    @Test("unsafe methods bump an item's version; GET shows it in ETag and body")
    func itemVersions() async throws {
        try await withOrigin { origin in
            let v1 = try await LoopbackHTTP.get(origin.port, "/items/7")
            #expect(v1.header("ETag") == "\"item-7-v1\"" && v1.text.contains("version 1"))

            let post = try await LoopbackHTTP.send("POST", port: origin.port, target: "/items/7", body: Array("x".utf8))
            #expect(post.status == 200 && post.text.contains("updated to version 2"))
            #expect(try await LoopbackHTTP.get(origin.port, "/items/7").header("ETag") == "\"item-7-v2\"")

            #expect(try await LoopbackHTTP.send("PUT", port: origin.port, target: "/items/7").status == 200)
            #expect(try await LoopbackHTTP.send("PATCH", port: origin.port, target: "/items/7").status == 200)
            let delete = try await LoopbackHTTP.send("DELETE", port: origin.port, target: "/items/7")
            #expect(delete.status == 204 && delete.body.isEmpty)
            let v5 = try await LoopbackHTTP.get(origin.port, "/items/7")
            #expect(v5.header("ETag") == "\"item-7-v5\"" && v5.header("Cache-Control") == "max-age=60")

            let old304 = try await LoopbackHTTP.get(origin.port, "/items/7", headers: [("If-None-Match", "\"item-7-v1\"")])
            #expect(old304.status == 200, "an old version's tag no longer matches")
            #expect(try await LoopbackHTTP.get(origin.port, "/items/8").header("ETag") == "\"item-8-v1\"")
        }
    }

    @Test("methods an endpoint does not take get 405 with Allow")
    func methodNotAllowed() async throws {
        try await withOrigin { origin in
            let post = try await LoopbackHTTP.send("POST", port: origin.port, target: "/max-age/10")
            #expect(post.status == 405 && post.header("Allow") == "GET, HEAD")
            let options = try await LoopbackHTTP.send("OPTIONS", port: origin.port, target: "/items/1")
            #expect(options.status == 405 && options.header("Allow") == "GET, HEAD, POST, PUT, PATCH, DELETE")
        }
    }

    @Test(
        "malformed or out-of-range parameters get 400 with a message",
        arguments: [
            ("/max-age/abc", "max-age seconds must be a whole number"),
            ("/max-age/-1", "max-age seconds must be a whole number"),
            ("/max-age/99999999999999999999", "max-age seconds must be from 0 to 2147483647"),
            ("/swr/1/x", "stale-while-revalidate seconds"),
            ("/slow/30001", "delay in milliseconds must be from 0 to 30000"),
            ("/large/1048577", "size in KiB must be from 0 to 1048576"),
            ("/rotating/0", "rotation period in seconds must be from 1"),
            ("/redirect/303/5", "redirect status must be 301, 302, 307 or 308"),
            ("/status/99", "status code must be from 200 to 599"),
            ("/items/" + String(repeating: "a", count: 65), "item id must be 1 to 64"),
            ("/items/a%20b", "item id must be"),
        ])
    func badRequest(target: String, message: String) async throws {
        try await withOrigin { origin in
            let response = try await LoopbackHTTP.get(origin.port, target)
            #expect(response.status == 400)
            #expect(response.text.contains(message), "\(response.text)")
            #expect(origin.requestCount(path: target) == 1)
        }
    }

    @Test("unknown paths and wrong shapes get 404, with a hint where one helps",
          arguments: [("/", "no endpoint"), ("/max-age", "did you mean /max-age/{N}?"),
                      ("/vary/other", "did you mean /vary/lang?"), ("/max-age/1/", "did you mean /max-age/{N}?")])
    func notFound(target: String, hint: String) async throws {
        try await withOrigin { origin in
            let response = try await LoopbackHTTP.get(origin.port, target)
            #expect(response.status == 404)
            #expect(response.text.contains(hint), "\(response.text)")
        }
    }
}
