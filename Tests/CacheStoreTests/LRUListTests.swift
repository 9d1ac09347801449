@_spi(Benchmarks) @testable import CacheStore
import Testing

@Suite("LRU list")
struct LRUListTests {
    @Test("evicts the least recently used first, and a touch makes a value recent")
    func order() {
        var list = LRUList<String, Int>()
        for (index, key) in ["a", "b", "c"].enumerated() { list.insert(index, for: key, cost: 10) }
        #expect(list.leastRecent?.key == "a")
        list.touch("a")
        #expect(list.removeLeastRecent() == "b")
        #expect(list.removeLeastRecent() == "c")
        #expect(list.removeLeastRecent() == "a")
        #expect(list.removeLeastRecent() == nil)
        #expect(list.isEmpty)
        #expect(list.totalCost == 0)
    }

    @Test("replacing a value updates the total cost and makes it most recent")
    func replace() {
        var list = LRUList<String, Int>()
        list.insert(1, for: "a", cost: 10)
        list.insert(2, for: "b", cost: 20)
        let old = list.insert(3, for: "a", cost: 5)
        #expect(old == 1)
        #expect(list.totalCost == 25)
        #expect(list.count == 2)
        #expect(list.keys == ["a", "b"])
    }

    @Test("removal from the middle keeps the links and reuses the slot")
    func removeMiddle() {
        var list = LRUList<Int, Int>()
        for key in 0..<5 { list.insert(key, for: key, cost: 1) }
        #expect(list.remove(2) == 2)
        #expect(list.remove(2) == nil)
        list.insert(9, for: 9, cost: 1)
        #expect(list.keys == [9, 4, 3, 1, 0])
        var seen: [Int] = []
        list.forEach { key, _ in seen.append(key) }
        #expect(seen == [9, 4, 3, 1, 0])
    }

    @Test("a long random sequence agrees with a simple model")
    func model() {
        var list = LRUList<Int, Int>()
        var model: [Int] = []  // most recent first
        var state: UInt64 = 7
        for _ in 0..<5_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let key = Int((state >> 33) % 50)
            switch (state >> 20) % 4 {
            case 0, 1:
                list.insert(key, for: key, cost: key)
                model.removeAll { $0 == key }
                model.insert(key, at: 0)
            case 2:
                #expect(list.touch(key) == model.contains(key))
                if model.contains(key) {
                    model.removeAll { $0 == key }
                    model.insert(key, at: 0)
                }
            default:
                #expect((list.remove(key) != nil) == model.contains(key))
                model.removeAll { $0 == key }
            }
        }
        #expect(list.keys == model)
        #expect(list.totalCost == model.reduce(0, +))
    }
}

extension LRUList {
    /// Every key, most recently used first.
    fileprivate var keys: [Key] {
        var keys: [Key] = []
        forEach { key, _ in keys.append(key) }
        return keys
    }

    /// Removes the least recently used value, as eviction does, and returns its key.
    fileprivate mutating func removeLeastRecent() -> Key? {
        guard let key = leastRecent?.key else { return nil }
        remove(key)
        return key
    }
}
