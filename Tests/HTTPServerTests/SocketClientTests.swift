import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport

/// The test client shares the process with the servers it talks to, and with every other test:
/// a descriptor it closes twice can be a server's socket by the second close.
@Suite struct SocketClientTests {
    /// A client that could not connect closed its socket in `init` and again in `deinit` (which
    /// runs when an initializer throws after every property is set). A descriptor opened between
    /// the two took the freed number and was closed under its owner: once a libmicrohttpd
    /// connection of a concurrently running test, which then aborted the whole test process.
    @Test func aClientThatCannotConnectClosesItsSocketOnce() throws {
        // Bound but not listening: connecting is refused, and no other test can take the port.
        let refusing = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(refusing) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                guard bind(refusing, address, length) == 0, getsockname(refusing, address, &length) == 0 else {
                    throw TestFailure("cannot bind: errno \(errno)")
                }
            }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))

        // Another thread keeps taking the lowest free descriptor number, as a server accepting
        // connections does, and notices when one of its descriptors is closed by someone else.
        let original = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(original) }
        let isDone = Atomic(false)
        let closedUnderUs = Atomic(0)
        let watcherStarted = DispatchSemaphore(value: 0)
        let watcherEnded = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            watcherStarted.signal()
            while !isDone.load(ordering: .relaxed) {
                let descriptor = dup(original)
                var isOpen = true
                for _ in 0..<200 where fcntl(descriptor, F_GETFD) == -1 {
                    isOpen = false
                    break
                }
                // One closed under us is not closed again: its number may be another's by now.
                if isOpen { close(descriptor) } else { closedUnderUs.add(1, ordering: .relaxed) }
            }
            watcherEnded.signal()
        }
        watcherStarted.wait()
        for _ in 0..<10_000 {
            #expect(throws: TestFailure.self) { try SocketClient(port: port) }
        }
        isDone.store(true, ordering: .relaxed)
        watcherEnded.wait()
        #expect(closedUnderUs.load(ordering: .relaxed) == 0)
    }
}
