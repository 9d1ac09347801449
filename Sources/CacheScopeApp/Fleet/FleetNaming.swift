/// Names for a fleet's instances: the process name from each one's hello, made unique with
/// `#2`, `#3` … in the order they first said hello (`web`, `web#2`); before an instance's first
/// hello, its socket's file name without `.sock`.
enum FleetNaming {
    /// The placeholder for an instance not reached yet: `/run/…/web-4242.sock` → `web-4242`.
    static func placeholder(path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return file.hasSuffix(".sock") ? String(file.dropLast(5)) : file
    }

    /// A name for `process` that none of `taken` has: `process`, else `process#2`, `process#3` …
    static func unique(_ process: String, taken: [String]) -> String {
        let base = process.isEmpty ? "app" : process
        guard taken.contains(base) else { return base }
        var number = 2
        while taken.contains("\(base)#\(number)") { number += 1 }
        return "\(base)#\(number)"
    }
}
