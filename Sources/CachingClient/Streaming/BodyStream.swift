public import NIOCore

/// A body as it arrives: its parts as `ByteBuffer`s, in order, read once by one task. Response
/// bodies come out of ``CachingClient/stream(for:body:policy:)`` as one; a request body to
/// stream to the origin goes in as one.
///
/// A response body the cache already holds whole (a stored response, or one collected to be stored) is
/// one part; a body streamed from the origin is the parts the connection delivers, each read
/// only when the reader asks for it (back-pressure reaches the origin's socket). Iterating a
/// second time, or from two tasks at once, is a programming error: the parts are not kept.
///
/// ```swift
/// let streamed = try await client.stream(for: request)
/// for try await part in streamed.body { try await write(part) }
/// ```
public struct BodyStream: AsyncSequence, Sendable {
    /// One part of the body.
    public typealias Element = ByteBuffer

    private let source: Source

    /// A body whose parts come from `parts`, after `prefix` (parts already read from it, or
    /// none).
    public init<Parts: AsyncSequence & Sendable>(prefix: [ByteBuffer] = [], parts: Parts) where Parts.Element == ByteBuffer {
        source = Source(prefix: prefix, next: PartReader(parts.makeAsyncIterator()))
    }

    /// A body of the given parts, already complete.
    public init(complete parts: [ByteBuffer]) {
        source = Source(prefix: parts, next: nil)
    }

    /// Makes the iterator; the body can be read once.
    public func makeAsyncIterator() -> Iterator {
        Iterator(source: source)
    }

    /// Reads the body's parts.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let source: Source

        /// The next part, or `nil` at the end of the body.
        /// - Throws: what the origin's connection threw (a ``TransportError`` from
        ///   ``AsyncHTTPClientTransport``), e.g. when it closed before the body's end.
        public mutating func next() async throws -> ByteBuffer? {
            try await source.next()
        }
    }
}

// MARK: - The one reader's state

/// The parts not yet read. `@unchecked Sendable`: a ``BodyStream`` is read by one task
/// at a time (its documented contract, as for AsyncHTTPClient's body it usually wraps), so its
/// mutable state is never touched concurrently; it only crosses from the task that received
/// the response head to the task that reads the body.
private final class Source: @unchecked Sendable {
    private var prefix: [ByteBuffer]
    private var prefixIndex = 0
    private var reader: PartReader?

    init(prefix: [ByteBuffer], next reader: PartReader?) {
        self.prefix = prefix
        self.reader = reader
    }

    func next() async throws -> ByteBuffer? {
        if prefixIndex < prefix.count {
            defer { prefixIndex += 1 }
            return prefix[prefixIndex]
        }
        prefix = []
        prefixIndex = 0
        guard let part = try await reader?.next() else {
            reader = nil
            return nil
        }
        return part
    }
}

/// An iterator of some sequence of parts, behind one type.
private final class PartReader {
    private let read: () async throws -> ByteBuffer?

    init<Iterator: AsyncIteratorProtocol>(_ iterator: Iterator) where Iterator.Element == ByteBuffer {
        var iterator = iterator
        read = { try await iterator.next() }
    }

    func next() async throws -> ByteBuffer? {
        try await read()
    }
}
