import Persistence
import Testing

@Suite struct LeastRecentlyUsedTests {
    @Test func aValueRefusedByTheCheckIsNotAUseAndGoesFirst() {
        var kept = LeastRecentlyUsed<String, Int>(capacity: 4)
        for (index, key) in ["a", "b", "c", "d"].enumerated() { kept.insert(index, cost: 0, for: key) }
        #expect(kept.use("a", if: { $0 == 99 }) == nil, "refused: not returned")
        #expect(kept.use("b") == 1)
        kept.insert(4, cost: 0, for: "e")
        // Full at four: a quarter of the room is made, the least recently used first ("a": its refused check was no use).
        #expect(kept.peek("a") == nil)
        #expect(kept.peek("b") == 1)
        #expect(kept.peek("e") == 4)
        #expect(kept.count == 4)
    }

    @Test func theTotalCostStaysWithinItsLimit() {
        var kept = LeastRecentlyUsed<Int, [UInt8]>(capacity: 100, maxCost: 1_000)
        for key in 0..<50 { kept.insert([UInt8](repeating: 0, count: 100), cost: 100, for: key) }
        #expect(kept.totalCost <= 1_000)
        #expect(kept.peek(49) != nil, "the newest stays")
        kept.insert([], cost: 0, for: 49)
        #expect(kept.totalCost <= 900, "a value replaced gives back its cost")
    }
}
