import HTTPCaching

/// The configured namespaces in matching order (the default last) with their naming
/// digests: which namespace a URI belongs to, and the storage keys of its entries.
struct NamespaceTable: Sendable {
    struct Member: Sendable {
        let namespace: Namespace
        let naming: EntryNaming
        let keys: NamespaceKeys?
    }

    let members: [Member]

    init(_ namespaces: [Namespace]) {
        members = namespaces.map { namespace in
            let keys = namespace.encryptionKey.map { NamespaceKeys(master: $0.symmetricKey) }
            return Member(namespace: namespace, naming: EntryNaming(key: keys?.naming), keys: keys)
        }
    }

    /// The index of the first namespace that takes `uri`; the last (default) takes the rest.
    func index(for uri: String) -> Int {
        for index in 0..<(members.count - 1) where members[index].namespace.match.matches(uri) { return index }
        return members.count - 1
    }

    subscript(index: Int) -> Member { members[index] }
}
