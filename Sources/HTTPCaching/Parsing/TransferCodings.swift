import Foundation

/// The `Transfer-Encoding` field's codings (RFC 9112 §6.1), as a cache or proxy checks them:
/// it can decode `chunked` only.
public enum TransferCodings {
    /// The first coding other than `chunked` in `values` (each a field line's list, empty list
    /// elements ignored as RFC 9110 §5.6.1 says), or `nil` when there is none.
    ///
    /// ```swift
    /// TransferCodings.firstNotChunked(in: ["gzip, chunked"])   // "gzip"
    /// TransferCodings.firstNotChunked(in: ["chunked", ""])     // nil
    /// ```
    public static func firstNotChunked(in values: some Sequence<String>) -> String? {
        for value in values {
            for element in value.split(separator: ",") {
                let coding = element.trimmingCharacters(in: .whitespaces)
                if !coding.isEmpty, coding.lowercased() != "chunked" { return coding }
            }
        }
        return nil
    }
}
