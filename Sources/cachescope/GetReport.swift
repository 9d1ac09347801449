import CachingClient
import Foundation

/// What `cachescope get` reports about one request, as text (stderr) or JSON (stdout).
struct GetReport: Encodable {
    let outcome: String
    let reason: String
    let status: Int
    let age: Double?
    let ttl: Double?
    let fromNetwork: Bool
    let bytes: Int

    init(_ result: ClientResponse) {
        outcome = result.outcome.rawValue
        reason = result.reason
        status = result.response.status.code
        age = result.age.map { ($0 * 1000).rounded() / 1000 }
        ttl = result.timeToLive.map { ($0 * 1000).rounded() / 1000 }
        fromNetwork = result.fromNetwork
        bytes = result.body.count
    }

    /// `HIT max-age=60 · 200 · age 3s · ttl 57s · 1234 bytes from cache`
    var text: String {
        var parts = ["\(outcome.uppercased()) \(reason)", "\(status)"]
        if let age { parts.append("age \(Int(age.rounded()))s") }
        if let ttl { parts.append("ttl \(Int(ttl.rounded()))s") }
        parts.append("\(bytes) bytes from \(fromNetwork ? "network" : "cache")")
        return parts.joined(separator: " · ")
    }

    func jsonLine() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
