import Foundation
import Glibc
import Synchronization

/// A response body made while it is sent: `produce` runs on a thread of its own and writes into
/// a pipe that the server sends from, so nothing is staged on disk and memory stays at the
/// pipe's buffer. A client that leaves closes the read end, and the producer's next write fails
/// (EPIPE; the server ignores SIGPIPE). A producer that throws ends the response with an error,
/// so the client sees a failed download rather than a short one. Each producer is a thread, so
/// at most `maxProducers` run at once; past them a body is refused with a 503 and `Retry-After`.
public final class PipedBody: Sendable {
    public static let maxProducers = 8
    private static let producers = Atomic<Int>(0)

    /// How the producer ended, read once the pipe is drained.
    private final class Outcome: Sendable {
        let succeeded = Mutex<Bool?>(nil)
    }

    private let readEnd: Int32
    private let outcome = Outcome()

    /// Starts `produce` with the pipe's write end, which is closed when it returns; `name` says
    /// what failed in the log.
    public init(name: String, produce: @escaping @Sendable (_ descriptor: Int32) throws -> Void) throws {
        // A write to a pipe whose reader left raises SIGPIPE; the failed write is enough (the
        // server ignores it too, but a body may be made before a server starts, as in tests).
        signal(SIGPIPE, SIG_IGN)
        let busy = HTTPError(.serviceUnavailable, "The server is too busy to send this; try again shortly.",
                             headers: ["Retry-After": "5"])
        guard Self.producers.add(1, ordering: .acquiringAndReleasing).newValue <= Self.maxProducers else {
            Self.producers.subtract(1, ordering: .acquiringAndReleasing)
            throw busy
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            Self.producers.subtract(1, ordering: .acquiringAndReleasing)
            throw busy
        }
        readEnd = ends[0]
        let writeEnd = ends[1]
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // The thread holds only the outcome: the read end closes with this body, whoever holds it.
        let outcome = self.outcome
        Thread.detachNewThread {
            var succeeded = false
            do {
                try produce(writeEnd)
                succeeded = true
            } catch {
                writeStandardErrorLine("error: \(name): \(error)")
            }
            outcome.succeeded.withLock { $0 = succeeded }
            close(writeEnd)
            Self.producers.subtract(1, ordering: .acquiringAndReleasing)
        }
    }

    deinit {
        close(readEnd)
    }

    /// Up to `capacity` next bytes into `buffer`: their count, or `endOfStream` after a body
    /// produced whole, or `endWithError` after one whose producer failed.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        while true {
            let count = Glibc.read(readEnd, buffer, capacity)
            if count > 0 { return count }
            if count < 0 && errno == EINTR { continue }
            return count == 0 && outcome.succeeded.withLock({ $0 }) == true ? Self.endOfStream : Self.endWithError
        }
    }

    /// Every remaining byte, for answering in process; throws if the producer failed.
    public func readAll() throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(into: $0.baseAddress!, capacity: $0.count) }
            if count == Self.endOfStream { return bytes }
            guard count > 0 else { throw HTTPError(.internalServerError, "The body could not be produced.") }
            bytes += chunk.prefix(count)
        }
    }

    /// `MHD_CONTENT_READER_END_OF_STREAM` and `…_END_WITH_ERROR`, macros Swift does not import.
    static let endOfStream = -1
    static let endWithError = -2
}
