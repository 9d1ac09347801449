/// Polls (without a fixed sleep) until `condition` holds or 5 s pass; whether it held.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<500 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
