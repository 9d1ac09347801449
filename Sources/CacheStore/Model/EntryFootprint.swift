import HTTPCaching
import HTTPTypes

/// What an entry really takes from each tier, which is what the tiers' capacities bound.
///
/// An entry's ``EntryMetadata/size`` is the response as HTTP sees it (body, status line, header
/// fields, URI): the figure the dashboard shows per entry. A tier holds more than that: in
/// memory, the objects that keep the parsed response (its header fields, the parsed caching
/// fields, the index's links); on disk, two files rounded up to whole filesystem blocks and a
/// row of the index database. For a small response the difference is nearly tenfold (a
/// 300-byte response takes about 2.8 KB of heap and 8 KB of disk), so a store that counted
/// `size` against `--memory-capacity 32M` held about 280 MB. The tiers count these footprints
/// instead; `AllocationBenchmarks` checks the memory estimate against the heap it measures.
enum EntryFootprint {
    /// The filesystem block that each of an entry's two files is rounded up to (4 KiB, the
    /// block of ext4, XFS, overlayfs and tmpfs).
    static let diskBlock = 4096

    /// Heap per entry besides its response bytes: the stored response and its parsed caching
    /// fields, the body's and field list's buffers, the index links (measured: 2.8 KB for a
    /// 312-byte response with six fields; `AllocationBenchmarks` keeps the estimate honest).
    static let memoryPerEntry = 1280
    /// Heap per header field besides its name and value bytes.
    static let memoryPerField = 208

    /// Bytes of heap an entry of `size` with `fieldCount` header fields takes in the memory tier.
    static func memory(size: Int, fieldCount: Int) -> Int {
        size + memoryPerEntry + memoryPerField * fieldCount
    }

    /// Bytes of heap `entry` takes in the memory tier.
    static func memory(_ entry: CacheEntry) -> Int {
        memory(size: entry.metadata.size, fieldCount: entry.stored.response.headerFields.count)
    }

    /// What the two files hold beyond `size`, at most: each file's envelope (40 bytes), the
    /// metadata's length prefixes (4 bytes more a field than `size` counts), times, and the
    /// request's Vary fields — about 300 bytes for twenty fields and a Vary value; 512 leaves
    /// room for sixty.
    static let fileFraming = 512

    /// Bytes of disk an entry of `size` takes: the body file rounded up to whole blocks and the
    /// metadata file (headers, times, validators: one block for all but huge header sections).
    /// Only `size` is known for an entry read back from the index, so the split between the two
    /// files is bounded rather than known:
    /// `roundUp(body + b) + roundUp(headers + h) ≤ roundUp(size + b + h) + block`, with the
    /// framing `b + h` ≤ ``fileFraming``. (Without it, an entry whose two files each crossed a
    /// block by their framing took a block more than counted.)
    static func disk(size: Int) -> Int {
        let blocks = (max(0, size) + fileFraming + diskBlock - 1) / diskBlock
        return (blocks + 1) * diskBlock
    }
}
