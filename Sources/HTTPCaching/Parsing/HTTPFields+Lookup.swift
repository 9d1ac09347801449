public import HTTPTypes

extension HTTPFields {
    /// The value of a field, like `self[name]` (several fields of that name are joined with
    /// ", "), but a field that occurs once is returned as it is: the subscript joins even a
    /// single value through a lazy sequence, which made it the costliest step of freshening a
    /// stored response after a 304.
    func value(of name: HTTPField.Name) -> String? {
        guard let first = firstIndex(where: { $0.name == name }) else { return nil }
        let rest = index(after: first)
        if self[rest...].contains(where: { $0.name == name }) { return self[name] }
        return self[first].value
    }

    /// The first value of a field (`self[values: name].first` without building the array):
    /// what to read for a field that holds one value, such as `ETag` or `Last-Modified`.
    public func firstValue(of name: HTTPField.Name) -> String? {
        first(where: { $0.name == name })?.value
    }
}
