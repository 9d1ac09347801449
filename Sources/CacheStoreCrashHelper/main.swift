// CacheStoreCrashHelper DIRECTORY [SEED]
//
// Opens a ResponseStore in DIRECTORY with CrashWorkload's configuration and stores, reads and
// removes entries in a loop forever, verifying every body it reads. The crash-safety test
// kills it with SIGKILL at random moments and checks what a reopened store holds.
// Prints "ready" once the store is open; exits 3 if it ever reads a wrong body, naming its seed.
// Without SEED it takes CACHESCOPE_CRASH_SEED from the environment, or a random one.
import CacheStore
import Foundation
import HTTPCaching

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: CacheStoreCrashHelper DIRECTORY [SEED]\n".utf8))
    exit(2)
}
let directory = URL(fileURLWithPath: arguments[1])
let seedText = arguments.count > 2 ? arguments[2] : ProcessInfo.processInfo.environment["CACHESCOPE_CRASH_SEED"]
let seed = seedText.flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64(UInt32.max))
var state = seed

let store: ResponseStore
do {
    store = try ResponseStore(configuration: try CrashWorkload.configuration(directory: directory))
} catch {
    FileHandle.standardError.write(Data("cannot open the store: \(error)\n".utf8))
    exit(4)
}
FileHandle.standardOutput.write(Data("ready\n".utf8))

let languages = ["en", "de"]
while true {
    let roll = CrashWorkload.next(&state)
    let index = Int(roll % 240)
    let language = languages[Int((roll >> 8) % 2)]
    switch (roll >> 16) % 10 {
    case 0...5:
        let now = Date()
        let (stored, body) = CrashWorkload.response(index, language: language, version: roll >> 20, now: now)
        let shortLived = (roll >> 24) % 16 == 0
        store.storeCachedResponse(
            stored, body: body, freshUntil: now.addingTimeInterval(60),
            expiresAt: now.addingTimeInterval(shortLived ? 0.05 : 3600))
    case 6...8:
        if let entry = await store.cachedResponse(for: CrashWorkload.request(index, language: language)),
            let problem = CrashWorkload.verify(entry)
        {
            FileHandle.standardError.write(Data("wrong body served (helper seed \(seed)): \(problem)\n".utf8))
            exit(3)
        }
    default:
        store.removeCachedResponse(for: CrashWorkload.request(index, language: language))
    }
    if (roll >> 32) % 64 == 0 { await store.flush() }
}
