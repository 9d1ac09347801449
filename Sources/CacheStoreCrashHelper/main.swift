// CacheStoreCrashHelper DIRECTORY [SEED] [MODE]
//
// Opens a ResponseStore in DIRECTORY with CrashWorkload's configuration and stores, reads,
// freshens (as a 304 would) and removes entries in a loop forever, verifying every entry it
// reads. The crash-safety test kills it with SIGKILL at random moments and checks what a
// reopened store holds.
// MODE is "mixed" (the default: mostly stores and reads) or "freshen" (mostly 304 freshens
// of stored entries, so most kills land in one).
// Prints "ready" once the store is open; exits 3 if it ever reads a wrong entry, naming its seed.
// Without SEED it takes CACHESCOPE_CRASH_SEED from the environment, or a random one.
import CacheStore
import Foundation
import HTTPCaching

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: CacheStoreCrashHelper DIRECTORY [SEED] [mixed|freshen]\n".utf8))
    exit(2)
}
let directory = URL(fileURLWithPath: arguments[1])
let seedText = arguments.count > 2 ? arguments[2] : ProcessInfo.processInfo.environment["CACHESCOPE_CRASH_SEED"]
let seed = seedText.flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64(UInt32.max))
let freshenMode = arguments.count > 3 && arguments[3] == "freshen"
var state = seed

let store: ResponseStore
do {
    store = try ResponseStore(configuration: try CrashWorkload.configuration(directory: directory))
} catch {
    FileHandle.standardError.write(Data("cannot open the store: \(error)\n".utf8))
    exit(4)
}
FileHandle.standardOutput.write(Data("ready\n".utf8))

func wrongEntry(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("wrong entry served (helper seed \(seed)): \(problem)\n".utf8))
    exit(3)
}

enum Step { case store, read, freshen, remove }

/// mixed: 50 % stores, 30 % reads, 10 % freshens, 10 % removals; freshen: 10 / 20 / 70 / 0.
func step(_ roll: UInt64) -> Step {
    let slot = (roll >> 16) % 10
    if freshenMode { return slot == 0 ? .store : slot < 3 ? .read : .freshen }
    return slot < 5 ? .store : slot < 8 ? .read : slot < 9 ? .freshen : .remove
}

let languages = ["en", "de"]
while true {
    let roll = CrashWorkload.next(&state)
    let index = Int(roll % (freshenMode ? 40 : 240))  // freshen mode: fewer keys, so most are stored
    let language = languages[Int((roll >> 8) % 2)]
    let retention: TimeInterval = (roll >> 24) % 16 == 0 ? 0.05 : 3600
    switch step(roll) {
    case .store:
        let now = Date()
        let (stored, body) = CrashWorkload.response(index, language: language, version: roll >> 20, now: now, retention: retention)
        store.storeCachedResponse(
            stored, body: body, freshUntil: now.addingTimeInterval(CrashWorkload.freshness),
            expiresAt: now.addingTimeInterval(retention))
    case .read:
        if let entry = await store.cachedResponse(for: CrashWorkload.request(index, language: language)),
            let problem = CrashWorkload.verify(entry)
        {
            wrongEntry(problem)
        }
    case .freshen:
        guard let entry = await store.cachedResponse(for: CrashWorkload.request(index, language: language)) else { continue }
        if let problem = CrashWorkload.verify(entry) { wrongEntry(problem) }
        let now = Date()
        store.storeFreshened(
            CrashWorkload.freshened(entry.stored, at: now, retention: retention), of: entry,
            freshUntil: now.addingTimeInterval(CrashWorkload.freshness), expiresAt: now.addingTimeInterval(retention))
    case .remove:
        store.removeCachedResponse(for: CrashWorkload.request(index, language: language))
    }
    if (roll >> 32) % 64 == 0 { await store.flush() }
}
