import Testing
@testable import HTTPServer

@Suite struct PendingEventsTests {
    @Test func bytesComeOutInOrderAcrossEventsAndReadsOfAnySize() {
        let events: [[UInt8]] = [Array(0..<10), [], Array(10..<13), Array(13..<100)]
        for capacity in [1, 3, 10, 64, 200] {
            var pending = PendingEvents()
            for event in events { pending.append(event) }
            #expect(pending.byteCount == 100)
            var out: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: capacity)
            while pending.byteCount > 0 {
                let count = buffer.withUnsafeMutableBytes { pending.take(into: $0.baseAddress!, capacity: capacity) }
                #expect(count > 0 && count <= capacity)
                out += buffer[..<count]
            }
            #expect(out == Array(0..<100), "capacity \(capacity)")
            #expect(buffer.withUnsafeMutableBytes { pending.take(into: $0.baseAddress!, capacity: capacity) } == 0)
        }
    }

    @Test func aStreamThatNeverCatchesUpKeepsOnlyWhatItHasNotSent() {
        var pending = PendingEvents()
        var buffer = [UInt8](repeating: 0, count: 4)
        var next: UInt8 = 0, expected: UInt8 = 0
        // Always one event behind: one in, most of one out, for many rounds.
        for _ in 0..<1_000 {
            pending.append([next, next &+ 1, next &+ 2, next &+ 3, next &+ 4])
            next &+= 5
            let count = buffer.withUnsafeMutableBytes { pending.take(into: $0.baseAddress!, capacity: 4) }
            for byte in buffer[..<count] {
                #expect(byte == expected)
                expected &+= 1
            }
        }
        #expect(pending.byteCount == 1_000)
    }

    @Test func anEventPartlySentElsewhereQueuesOnlyItsRest() {
        var pending = PendingEvents()
        pending.append(Array(0..<10), sentAlready: 4)
        pending.append(Array(10..<12))
        #expect(pending.byteCount == 8)
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = buffer.withUnsafeMutableBytes { pending.take(into: $0.baseAddress!, capacity: 16) }
        #expect(Array(buffer[..<count]) == Array(4..<12))
    }

    /// A broadcast is encoded once: every stream queues the same bytes, not a copy or an encoding
    /// of its own (10,000 streams behind on a 200 KB fragment would otherwise hold 2 GB).
    @Test func aBroadcastIsEncodedOnceAndItsBytesSharedByEveryStream() {
        // Enough streams that the broadcast is spread over threads.
        let streams = (0..<4 * EventStream.streamsPerBroadcastPart).map { _ in EventStream() }
        EventStream.broadcast(ServerSentEvent(id: "9", event: "fragment", data: String(repeating: "x", count: 100_000)), to: streams)
        let storage = streams.map(\.pendingEventStorage)
        #expect(storage.allSatisfy { $0.count == 1 })
        #expect(Set(storage.compactMap(\.first)).count == 1)
        #expect(streams.allSatisfy { $0.pendingByteCount > 100_000 })
    }
}
