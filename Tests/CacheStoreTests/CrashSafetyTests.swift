@testable import CacheStore
import CacheStoreCrashHelper
import Foundation
import HTTPCaching
import HTTPTypes
import Testing

/// A helper process stores, reads, freshens (as a 304 does) and removes entries in a loop;
/// the test kills it with SIGKILL at random moments, reopens the store and checks it. The
/// freshen rounds run the helper in its `freshen` mode, so most kills land in a 304 freshen:
/// each entry must then have the old or the new metadata with its own body, never a mix.
///
/// The randomness has a seed: `CACHESCOPE_CRASH_SEED` when set, otherwise a random one. It
/// chooses every kill delay and each round's helper workload, and every failure names it with
/// the command that reruns it. (A rerun repeats the delays and workloads exactly; where in its
/// loop the helper is when the signal lands still depends on the machine.)
@Suite("Crash safety", .serialized, .timeLimit(.minutes(10)))
struct CrashSafetyTests {
    static let kills = 60
    /// Rounds after the mixed ones, with the helper mostly freshening stored entries.
    static let freshenKills = 30

    @Test("after SIGKILL at random moments, freshens included, the index is consistent and every entry reads back exactly")
    func killRepeatedly() async throws {
        let binary = try #require(HelperProcess.locate(), "CacheStoreCrashHelper not found next to the test runner")
        let seed = try CrashSeed.fromEnvironment()
        print("crash safety: seed \(seed.value) (\(seed.rerun))")
        let directory = TemporaryDirectory("crash")
        var random = seed.generator
        var entriesSeen = 0
        var freshenedSeen = 0
        var leftoverTemporaryFiles = 0
        for round in 0..<(Self.kills + Self.freshenKills) {
            let mode = round < Self.kills ? "mixed" : "freshen"
            let context = seed.context(round: round) + ", \(mode) workload"
            let (process, errors) = try HelperProcess.start(binary, directory: directory.url, seed: random.next(), mode: mode)
            // How long the helper runs before the kill: the behaviour under test, not ordering.
            try await Task.sleep(for: .milliseconds(Int.random(in: 40...140, using: &random)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(
                process.terminationReason == .uncaughtSignal,
                "\(context): helper exited by itself (\(process.terminationStatus)): \(stderr)")
            leftoverTemporaryFiles += ["default", "secret"].reduce(0) { count, name in
                count + ((try? FileManager.default.contentsOfDirectory(atPath: directory.namespace(name) + "/tmp"))?.count ?? 0)
            }
            let seen = try await check(directory, context: context)
            entriesSeen += seen.entries
            freshenedSeen += seen.freshened
        }
        #expect(entriesSeen > 0, "the helper never stored anything before being killed; \(seed.rerun)")
        #expect(freshenedSeen > 0, "no entry read back had been freshened; \(seed.rerun)")
        print("crash safety: \(entriesSeen) entries checked after the kills, \(freshenedSeen) of them freshened by a 304")
        _ = leftoverTemporaryFiles  // how often a kill hit a write in progress; informative only
    }

    /// Reopens the store and checks it; returns how many entries it holds, and how many of
    /// those carry metadata from a 304 freshen.
    private func check(_ directory: TemporaryDirectory, context: String) async throws -> (entries: Int, freshened: Int) {
        let recorder = ChangeRecorder()
        var configuration = try CrashWorkload.configuration(directory: directory.url)
        configuration.sweepInterval = .seconds(3600)  // no sweep between the counts below
        let store = try ResponseStore(configuration: configuration, observer: recorder.observer)
        await store.flush()  // the repair pass and the open-time sweep are done
        #expect(store.invariantViolations() == [], "\(context)")
        let stats = store.stats()
        #expect(stats.diskUsed <= stats.diskCapacity, "\(context)")
        #expect(stats.degradedNamespaces.isEmpty, "\(context)")

        let rows = await store.entries()
        #expect(rows.count == stats.entryCount, "\(context)")
        let secretBytes = rows.filter { $0.namespace == "secret" }.reduce(0) { $0 + $1.size }
        #expect(secretBytes <= 512 << 10, "\(context): secret namespace over its limit")
        var freshened = 0
        for row in rows {
            guard let found = await store.variants(for: row.id.key).first(where: { $0.id == row.id }) else {
                // Only an entry whose short retention ended may be gone: since the listing, or
                // already by its metadata file — after a kill between a freshen's rename and
                // the commit of its row, the row (the listing) still holds the previous
                // retention, and the file, which is what is served, wins.
                let expired = row.expiresAt.map { $0 <= Date() } == true || recorder.evictions(.expired).contains { $0.id == row.id }
                #expect(expired, "\(context): \(row.id) listed but not readable")
                continue
            }
            #expect(CrashWorkload.verify(found) == nil, "\(context): \(CrashWorkload.verify(found) ?? "")")
            if found.stored.response.headerFields[HTTPField.Name("X-Crash-Freshens")!].map({ $0 != "0" }) == true { freshened += 1 }
        }
        #expect(recorder.evictions(.corrupt).isEmpty, "\(context): corrupt entries after a crash: \(recorder.evictions(.corrupt))")

        // Every file has a row and every row a file: one metadata file and one body file each.
        await store.flush()
        let files = ["default", "secret"].reduce(0) { $0 + directory.entryFiles($1).count }
        let bodies = ["default", "secret"].reduce(0) { $0 + directory.bodyFiles($1).count }
        #expect(files == store.stats().diskEntryCount, "\(context): \(files) metadata files, \(store.stats().diskEntryCount) rows")
        #expect(bodies == store.stats().diskEntryCount, "\(context): \(bodies) body files, \(store.stats().diskEntryCount) rows")
        await store.close()
        return (rows.count, freshened)
    }
}

/// The crash test's seed: where it came from, the generator it drives, and how to rerun it.
struct CrashSeed {
    static let variable = "CACHESCOPE_CRASH_SEED"
    let value: UInt64

    /// `CACHESCOPE_CRASH_SEED` when set (it must be a number), otherwise a random seed.
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> CrashSeed {
        guard let text = environment[variable] else { return CrashSeed(value: UInt64.random(in: 1...UInt64(UInt32.max))) }
        guard let value = UInt64(text.trimmingCharacters(in: .whitespaces)) else {
            throw CrashSeedError(description: "\(variable)=\(text) is not a whole number; give e.g. \(variable)=12345")
        }
        return CrashSeed(value: value)
    }

    /// The generator of every random choice of a run.
    var generator: SplitMix64Generator { SplitMix64Generator(state: value) }

    /// What a failure message says: the round, the seed, and the command that repeats the run.
    func context(round: Int) -> String { "round \(round), seed \(value) (\(rerun))" }

    /// The command that reruns the test with this seed.
    var rerun: String { "rerun with: \(Self.variable)=\(value) swift test --no-parallel --filter CrashSafetyTests" }
}

struct CrashSeedError: Error, CustomStringConvertible {
    let description: String
}

/// SplitMix64 as a `RandomNumberGenerator`, the same stream the helper uses.
struct SplitMix64Generator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 { CrashWorkload.next(&state) }
}

@Suite("Crash test seed")
struct CrashSeedTests {
    @Test("CACHESCOPE_CRASH_SEED chooses the seed; the same seed gives the same kill delays")
    func seedFromEnvironment() throws {
        let seed = try CrashSeed.fromEnvironment(["CACHESCOPE_CRASH_SEED": "4242"])
        #expect(seed.value == 4242)
        #expect(seed.rerun == "rerun with: CACHESCOPE_CRASH_SEED=4242 swift test --no-parallel --filter CrashSafetyTests")
        #expect(seed.context(round: 7).hasPrefix("round 7, seed 4242 (rerun with: CACHESCOPE_CRASH_SEED=4242 "))
        var first = seed.generator
        var second = try CrashSeed.fromEnvironment(["CACHESCOPE_CRASH_SEED": "4242"]).generator
        let delays = (0..<10).map { _ in Int.random(in: 40...140, using: &first) }
        #expect(delays == (0..<10).map { _ in Int.random(in: 40...140, using: &second) })
        var other = try CrashSeed.fromEnvironment(["CACHESCOPE_CRASH_SEED": "4243"]).generator
        #expect(delays != (0..<10).map { _ in Int.random(in: 40...140, using: &other) })
    }

    @Test("without CACHESCOPE_CRASH_SEED the seed is random; a seed that is not a number is an error saying so")
    func randomAndInvalidSeeds() throws {
        let seeds = try (0..<4).map { _ in try CrashSeed.fromEnvironment([:]).value }
        #expect(Set(seeds).count > 1)
        #expect(seeds.allSatisfy { $0 > 0 })
        #expect {
            try CrashSeed.fromEnvironment(["CACHESCOPE_CRASH_SEED": "soon"])
        } throws: { error in
            (error as? CrashSeedError)?.description == "CACHESCOPE_CRASH_SEED=soon is not a whole number; give e.g. CACHESCOPE_CRASH_SEED=12345"
        }
    }
}
