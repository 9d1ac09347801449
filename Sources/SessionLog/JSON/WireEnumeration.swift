import CacheEvents
import CacheStore
import HTTPCaching

/// An enumeration written by raw value in event lines (`"outcome":"hit"`), read back
/// through a ``NameTable`` instead of `init(rawValue:)`, which would need a `String` first.
protocol WireEnumeration: RawRepresentable where RawValue == String {
    static var wireCases: [Self] { get }
    static var wireNames: NameTable { get }
}

private enum WireTables {
    static let verdicts: [LookupVerdict] = LookupVerdict.allCases
    static let verdictNames = NameTable(verdicts.map(\.rawValue))
    static let sources: [ServedSource] = [.cache, .network]
    static let sourceNames = NameTable(sources.map(\.rawValue))
    static let outcomes: [CacheOutcome] = CacheOutcome.allCases
    static let outcomeNames = NameTable(outcomes.map(\.rawValue))
    static let tiers: [EntryTier] = EntryTier.allCases
    static let tierNames = NameTable(tiers.map(\.rawValue))
    static let reasons: [EvictionReason] = EvictionReason.allCases
    static let reasonNames = NameTable(reasons.map(\.rawValue))
}

extension LookupVerdict: WireEnumeration {
    static var wireCases: [LookupVerdict] { WireTables.verdicts }
    static var wireNames: NameTable { WireTables.verdictNames }
}

extension ServedSource: WireEnumeration {
    static var wireCases: [ServedSource] { WireTables.sources }
    static var wireNames: NameTable { WireTables.sourceNames }
}

extension CacheOutcome: WireEnumeration {
    static var wireCases: [CacheOutcome] { WireTables.outcomes }
    static var wireNames: NameTable { WireTables.outcomeNames }
}

extension EntryTier: WireEnumeration {
    static var wireCases: [EntryTier] { WireTables.tiers }
    static var wireNames: NameTable { WireTables.tierNames }
}

extension EvictionReason: WireEnumeration {
    static var wireCases: [EvictionReason] { WireTables.reasons }
    static var wireNames: NameTable { WireTables.reasonNames }
}

