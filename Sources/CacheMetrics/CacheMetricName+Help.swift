extension CacheMetricName {
    /// The one-line description a backend that shows help texts (Prometheus' `# HELP`) gives
    /// the metric `name`; `nil` for a name that is not one of ``CacheMetricName``'s.
    public static func help(for name: String) -> String? {
        helpTexts[name]
    }

    private static let helpTexts: [String: String] = [
        requests: "Requests of the app answered by the caching client, by outcome (background refreshes not included).",
        coalescedRequests: "Requests that shared another request's origin fetch instead of sending their own.",
        backgroundRefreshes: "Stale-while-revalidate refreshes the cache made on its own, by outcome.",
        bodyBytes: "Response body bytes served from the cache (source=cache) and received from the origin (source=origin).",
        revalidations: "Conditional requests sent to the origin, by result (not_modified, modified, failed).",
        evictions: "Entries that left the store or one of its tiers, by reason and tier.",
        errors: "Error events: origin unreachable, disk degraded, and the like.",
        droppedEvents: "Events the metrics did not see (always 0: they observe the event bus and lose none).",
        requestDuration: "How long requests of the app took, in seconds, by outcome.",
        backgroundRefreshDuration: "How long background refreshes took, in seconds, by outcome.",
        storeUsed: "Bytes the store holds, by tier.",
        storeCapacity: "The store's capacity in bytes, by tier.",
        storeEntries: "Entries with a copy in the tier.",
        degradedNamespaces: "Namespaces whose disk failed and that keep their entries in memory only.",
    ]
}
