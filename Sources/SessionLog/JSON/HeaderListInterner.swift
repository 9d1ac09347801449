import HTTPTypes
import CacheEvents
/// Shares identical header lists between events: a session's requests mostly send the same
/// few header sets, so one `HTTPFields` value (and its storage) serves them all. Lists are keyed by a hash of their JSON
/// text and compared with that text field by field (no strings built) before being shared;
/// at most ``capacity`` distinct lists are remembered (response header sets, which carry
/// dates and ETags, are mostly unique).
///
struct HeaderListInterner {
    /// The most distinct lists remembered.
    static let capacity = 4096
    private static let tableSize = capacity * 2

    /// Open addressing keyed by the text's hash (already well mixed, so no `Hasher` round).
    private var hashes: [UInt64] = []
    private var lists: [HTTPFields?] = []
    private var count = 0
    /// Field names already validated, so a name seen before costs a lookup, and its storage is
    /// shared by every field that carries it.
    private var names: [String: HTTPField.Name] = [:]
    
    /// The list remembered under `hash` if `matches` confirms it, else the list `build`
    /// appends (remembered for next time while there is room).
    mutating func list(
        hash: UInt64, matches: (HTTPFields) -> Bool, _ build: (inout HTTPFields, (String) -> HTTPField.Name?) -> Void
    ) -> HTTPFields {
        if hashes.isEmpty {
            hashes = [UInt64](repeating: 0, count: Self.tableSize)
            lists = [HTTPFields?](repeating: nil, count: Self.tableSize)
        }
        let mask = Self.tableSize - 1
        var cell = Int(truncatingIfNeeded: hash) & mask
        while let cached = lists[cell] {
            if hashes[cell] == hash, matches(cached) { return cached }
            cell = (cell + 1) & mask
        }
        var list = HTTPFields()
        var names = self.names
        self.names = [:]
        build(&list) { text in
            if let known = names[text] { return known }
            // A recorded name that is not a valid field name, or a pseudo-header, is left out.
            guard !text.hasPrefix(":"), let name = HTTPField.Name(text) else { return nil }
            if names.count < Self.capacity { names[text] = name }
            return name
        }
        self.names = names
        if count < Self.capacity {
            hashes[cell] = hash
            lists[cell] = list
            count += 1
        }
        return list
    }
}
