import TerminalUI

/// URLs and keys as table cells: escaped (a URL is untrusted text), without the scheme, and
/// when too long without the host, so the path — the part that tells requests apart — shows.
enum DisplayURL {
    /// Columns below which URLs always lose their host, so rows look alike: 40.
    static let hostWidth = 40

    /// `url` for a column `width` wide: `host/path?query` in a wide column when it fits, else
    /// `/path?query`.
    static func fitted(_ url: String, width: Int) -> String {
        let bare = withoutScheme(Escaped.text(url))
        if width >= hostWidth, TextWidth.of(bare) <= width { return bare }
        if let slash = bare.firstIndex(of: "/") { return String(bare[slash...]) }
        return bare
    }

    /// A primary key (`GET http://h/p`) for a column: the method only when it is not GET.
    static func fittedKey(_ key: String, width: Int) -> String {
        if key.hasPrefix("GET ") { return fitted(String(key.dropFirst(4)), width: width) }
        guard let space = key.firstIndex(of: " ") else { return fitted(key, width: width) }
        let method = Escaped.text(String(key[..<space]))
        return method + " " + fitted(String(key[key.index(after: space)...]), width: max(1, width - method.count - 1))
    }

    private static func withoutScheme(_ url: String) -> String {
        for scheme in ["http://", "https://"] where url.hasPrefix(scheme) { return String(url.dropFirst(scheme.count)) }
        return url
    }
}
