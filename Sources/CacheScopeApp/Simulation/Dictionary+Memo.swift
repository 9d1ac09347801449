extension Dictionary {
    /// The value for `key`, made by `make` and kept the first time it is asked for (`nil`
    /// results included, when `Value` is optional): a recording asks for the same URLs again
    /// and again, and each is parsed once.
    mutating func memo(_ key: Key, _ make: () -> Value) -> Value {
        if let known = self[key] { return known }
        let made = make()
        self[key] = made
        return made
    }
}
