import CacheStore
import HTTPCaching
import HTTPTypes

/// A parsed, compiled filter: predicates joined by `!`, `&` and `|`.
indirect enum FilterNode: Sendable {
    case not(FilterNode)
    case and(FilterNode, FilterNode)
    case or(FilterNode, FilterNode)
    case outcome(CacheOutcome)
    case tier(EntryTier)
    case text(FilterField, TextMatch)
    case number(FilterField, Comparison)
    case header(HTTPField.Name, TextMatch?)
    case background
    case tag(String)

    func matches(_ subject: some FilterSubject) -> Bool {
        switch self {
        case .not(let node): !node.matches(subject)
        case .and(let left, let right): left.matches(subject) && right.matches(subject)
        case .or(let left, let right): left.matches(subject) || right.matches(subject)
        case .outcome(let outcome): subject.filterOutcome == outcome
        case .tier(let tier): subject.filterTier.map { Self.tier($0, matches: tier) } ?? false
        case .text(let field, let match): Self.text(of: field, in: subject).map(match.matches) ?? false
        case .number(let field, let comparison): Self.number(of: field, in: subject).map(comparison.matches) ?? false
        case .header(let name, let match):
            subject.filterHeaderContains(name) { value in match.map { $0.matches(value[...]) } ?? true }
        case .background: subject.filterIsBackground == true
        case .tag(let tag): subject.filterTags?.contains(tag) ?? false
        }
    }

    /// Whether one of its regular expressions was given up (``CompiledRegex/gaveUp``).
    var gaveUp: Bool {
        switch self {
        case .not(let node): node.gaveUp
        case .and(let left, let right), .or(let left, let right): left.gaveUp || right.gaveUp
        case .text(_, .regex(let regex)), .header(_, .regex(let regex)?): regex.gaveUp
        case .outcome, .tier, .text, .number, .header, .background, .tag: false
        }
    }

    /// `tier:memory` and `tier:disk` match entries with a copy there (so also `both`);
    /// `tier:both` only entries in both.
    private static func tier(_ tier: EntryTier, matches wanted: EntryTier) -> Bool {
        switch wanted {
        case .memory: tier.includesMemory
        case .disk: tier.includesDisk
        case .both: tier == .both
        }
    }

    private static func text(of field: FilterField, in subject: some FilterSubject) -> Substring? {
        switch field {
        case .reason: subject.filterReason.map { $0[...] }
        case .method: subject.filterMethod.map { $0[...] }
        case .url: subject.filterURL.map { $0[...] }
        case .host: subject.filterHost
        case .instance: subject.filterInstance.map { $0[...] }
        default: nil
        }
    }

    private static func number(of field: FilterField, in subject: some FilterSubject) -> Double? {
        switch field {
        case .status: subject.filterStatus.map(Double.init)
        case .ttl: subject.filterTTL
        case .age: subject.filterAge
        case .size: subject.filterSize.map(Double.init)
        default: nil
        }
    }
}
