import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A deliberately dumb HTTP/1.1 client over a raw TCP socket: one request per connection
/// (`Connection: close`), no redirects followed, no headers added but `Host`. Tests see exactly
/// what the origin sent. Blocking socket calls run on a thread of their own, never on the Swift
/// concurrency pool.
enum LoopbackHTTP {
    enum Failure: Error, Equatable {
        case connectionRefused
        case socketError(String)
        case malformedResponse(String)
    }

    /// A parsed response.
    struct Response {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        var text: String { String(decoding: body, as: UTF8.self) }

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        func values(_ name: String) -> [String] {
            headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }
    }

    static func get(_ port: Int, _ target: String, headers: [(String, String)] = []) async throws -> Response {
        try await send("GET", port: port, target: target, headers: headers)
    }

    static func send(
        _ method: String, port: Int, target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) async throws -> Response {
        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH" {
            request += "Content-Length: \(body.count)\r\n"
        }
        let bytes = Array((request + "\r\n").utf8) + body
        let raw = try await exchange(port: port, bytes: bytes)
        return try parse(raw, method: method)
    }

    /// Sends raw bytes and reads until the server closes the connection.
    static func exchange(port: Int, bytes: [UInt8]) async throws -> [UInt8] {
        try await withCheckedThrowingContinuation { continuation in
            // A thread of its own: Dispatch's global queue has only as many threads as cores, so
            // a few blocked reads (e.g. /slow) would queue every other test's requests behind them.
            let thread = Thread {
                continuation.resume(with: Result { try blockingExchange(port: port, bytes: bytes) })
            }
            thread.start()
        }
    }

    private static func blockingExchange(port: Int, bytes: [UInt8]) throws -> [UInt8] {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure.socketError("socket: errno \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if connected != 0 {
            throw errno == ECONNREFUSED ? Failure.connectionRefused : Failure.socketError("connect: errno \(errno)")
        }

        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure.socketError("write: errno \(errno)") }
            sent += n
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            guard n > 0 else { throw Failure.socketError("read: errno \(errno)") }
            received.append(contentsOf: chunk[0..<n])
        }
        return received
    }

    /// Splits status line, header fields and body (the rest of the stream).
    static func parse(_ raw: [UInt8], method: String) throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = raw.indices.first(where: { raw[$0...].starts(with: separator) }) else {
            throw Failure.malformedResponse("no end of header section in \(raw.count) bytes")
        }
        let head = String(decoding: raw[..<end], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1", let status = Int(statusLine[1]) else {
            throw Failure.malformedResponse("bad status line in \(head)")
        }
        let headers = lines.map { line -> (name: String, value: String) in
            let colon = line.firstIndex(of: ":") ?? line.endIndex
            let value = line[colon...].dropFirst().trimmingCharacters(in: .whitespaces)
            return (name: String(line[..<colon]), value: value)
        }
        return Response(status: status, headers: headers, body: Array(raw[(end + 4)...]))
    }
}
