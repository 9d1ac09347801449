import NIOHTTP1

extension HTTPMethod {
    /// The method as the client sent it, to forward as it is (RFC 9110 §9.1: a method is a
    /// case-sensitive token). NIO's `rawValue` spells `M-SEARCH` as `MSEARCH`, which an origin
    /// would refuse or take for another method.
    var wireName: String {
        self == .MSEARCH ? "M-SEARCH" : rawValue
    }
}
