/// The version `cachescope --version` prints.
enum CacheScopeVersion {
    static let current = "0.1.0"
}
