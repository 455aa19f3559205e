import Foundation
import Glibc
import Testing
import TestSupport
@testable import HTTPServer

/// Bodies made while they are sent: a slow or stalled reader holds a producer's thread and its
/// `StreamBound` place no longer than the stall timeout, and never cuts off a slow producer.
@Suite struct StreamedBodyTests {
    @Test func aReaderThatTakesNothingIsGivenUpAndItsPlaceGivenBack() throws {
        let bound = StreamBound(total: 1, perAddress: 1)
        let body = try PipedBody(name: "endless", holding: try bound.claim(address: "192.0.2.1"), stallTimeout: .milliseconds(100)) { descriptor in
            let output = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
            while true { try output.write(contentsOf: Data(count: 64 * 1024)) }
        }
        #expect(throws: HTTPError.self) { try bound.claim(address: "192.0.2.2") }
        #expect(waitUntil(seconds: 10) { bound.inUse == 0 }, "the producer's thread and place are let go")
        #expect(throws: (any Error).self, "a failed download, never a short one") { try body.readAll() }
    }

    @Test func aReaderWaitingForASlowProducerIsNotGivenUp() throws {
        let bound = StreamBound(total: 1, perAddress: 1)
        let body = try PipedBody(name: "slow", holding: try bound.claim(address: "192.0.2.1"), stallTimeout: .milliseconds(20)) { descriptor in
            usleep(200_000)  // ten stall timeouts with nothing in the pipe: the producer is thinking
            try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: Data("done".utf8))
        }
        #expect(try body.readAll() == Array("done".utf8))
    }

    @Test func boundsCountPerAddressAndInAll() throws {
        let bound = StreamBound(total: 3, perAddress: 2)
        let first = try bound.claim(address: "192.0.2.1")
        let second = try bound.claim(address: "192.0.2.1")
        #expect(throws: HTTPError.self) { try bound.claim(address: "192.0.2.1") }
        let third = try bound.claim(address: "192.0.2.2")
        #expect(throws: HTTPError.self) { try bound.claim(address: "192.0.2.3") }
        first.release()
        first.release()  // once only
        #expect(bound.inUse == 2)
        _ = try bound.claim(address: "192.0.2.1")  // the place given back is free again
        withExtendedLifetime((second, third)) {}
    }
}
