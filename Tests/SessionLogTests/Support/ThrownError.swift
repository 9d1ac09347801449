/// The error `body` throws, or nil when it returns: for comparing a typed error (and its
/// message) with what a test expects.
func thrownError<Failure: Error>(by body: () throws(Failure) -> Void) -> Failure? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}
