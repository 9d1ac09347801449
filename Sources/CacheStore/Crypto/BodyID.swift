/// Names one stored body of an entry: a body file is `<storage key>.<body id>`, and the
/// entry's metadata file says which body id it goes with.
///
/// Every full store of an entry gets a new id, so a body file is written once and never
/// replaced: a metadata file can only ever name the body it was written with (the id is also
/// inside the body file's checksum or associated data), never the body of another response.
/// A 304 freshen keeps the id and rewrites only the metadata.
///
/// Ids need only be unique per entry over its history on disk: a random 64-bit session start
/// plus a counter, mixed with SplitMix64 (a bijection, so one session never repeats an id).
struct BodyID: Hashable, Sendable, CustomStringConvertible {
    let value: UInt64

    init(_ value: UInt64) {
        self.value = value
    }

    /// The id of the `counter`-th body of a session that started at `session`.
    init(session: UInt64, counter: UInt64) {
        var z = session &+ counter &* 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        value = z ^ (z >> 31)
    }

    /// 16 lower-case hex digits: the suffix of the body file's name.
    var hex: String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }

    /// The id that 16 lower-case hex digits stand for; `nil` for anything else.
    init?(hex: Substring) {
        guard hex.utf8.count == 16, hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
            let value = UInt64(hex, radix: 16)
        else { return nil }
        self.value = value
    }

    /// The 8 bytes bound into the body file's checksum or associated data.
    var bytes: [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }

    var description: String { hex }
}

/// The two kinds of name in a namespace's `entries/` directory.
enum EntryFileName: Hashable, Sendable {
    /// `<64 hex>`: an entry's metadata file (or, from format 1, its whole file).
    case metadata(StorageKey)
    /// `<64 hex>.<16 hex>`: one body of an entry.
    case body(StorageKey, BodyID)

    /// What a directory entry's name stands for; `nil` for a name the store never writes.
    init?(_ name: String) {
        if let key = StorageKey(hex: name) {
            self = .metadata(key)
            return
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let key = StorageKey(hex: String(parts[0])), let body = BodyID(hex: parts[1]) else { return nil }
        self = .body(key, body)
    }

    var storageKey: StorageKey {
        switch self {
        case .metadata(let key), .body(let key, _): return key
        }
    }

    /// The file's name inside `entries/`.
    var name: String {
        switch self {
        case .metadata(let key): return key.hex
        case .body(let key, let body): return key.hex + "." + body.hex
        }
    }
}
