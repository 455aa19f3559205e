import Dispatch
import Foundation
import Glibc
import Synchronization

/// A response body made while it is sent: `produce` runs on a thread of its own and writes into
/// a pipe that the server sends from, so nothing is staged on disk and memory stays at the
/// pipe's buffer. A client that leaves closes the read end, and the producer's next write fails
/// (EPIPE; the server ignores SIGPIPE). A producer that throws ends the response with an error,
/// so the client sees a failed download rather than a short one.
///
/// Each producer is a thread that a slow reader keeps waiting, so it holds a `StreamBound.Claim`
/// of its kind until it ends, and a reader that takes nothing for `stallTimeout` is given up:
/// the pipe is cut, the producer's write fails and its thread, its claim and whatever it holds
/// (an export's turn and staging folder) are let go. Bodies whose parts can be made on demand
/// need no thread at all: see `PulledBody`.
public final class PipedBody: Sendable {
    /// Long enough for any reader that reads at all; short next to the minute a stalled one held a thread.
    public static let defaultStallTimeout: Duration = .seconds(10)

    /// What the producer, the server's reads and the watch over them share.
    private final class Pipe: Sendable {
        /// How the producer ended, read once the pipe is drained; false once the pipe was cut,
        /// whatever the producer did (what it wrote into the cut pipe is lost).
        let succeeded = Mutex<Bool?>(nil)
        let lastRead = Mutex(ContinuousClock.now)
        /// The read end while the body holds it: the watch cuts it only then.
        let readEnd: Mutex<Int32?>

        init(readEnd: Int32) {
            self.readEnd = Mutex(readEnd)
        }

        /// Puts an empty file in the read end's place: the producer's next write fails as if the
        /// client had left, and the server reads the end of a failed body.
        func cut() {
            succeeded.withLock { $0 = false }
            readEnd.withLock { readEnd in
                guard let descriptor = readEnd else { return }
                let empty = open("/dev/null", O_RDONLY | O_CLOEXEC)
                guard empty >= 0 else { return }
                _ = dup2(empty, descriptor)
                Glibc.close(empty)
            }
        }

        /// Whether bytes wait in the pipe for the server to take: with none, the server is
        /// waiting for the producer, which is no stall of the reader's.
        func hasUnreadBytes() -> Bool {
            readEnd.withLock { readEnd in
                guard let descriptor = readEnd else { return false }
                var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                return poll(&waiting, 1, 0) == 1 && waiting.revents & Int16(POLLIN) != 0
            }
        }

        func close() {
            readEnd.withLock { readEnd in
                if let descriptor = readEnd { Glibc.close(descriptor) }
                readEnd = nil
            }
        }
    }

    private let readEnd: Int32
    private let pipe: Pipe

    /// Starts `produce` with the pipe's write end, which is closed when it returns; `claim` is
    /// given back then. `name` says what failed in the log.
    public init(name: String, holding claim: StreamBound.Claim, stallTimeout: Duration = defaultStallTimeout,
                produce: @escaping @Sendable (_ descriptor: Int32) throws -> Void) throws {
        // A write to a pipe whose reader left raises SIGPIPE; the failed write is enough (the
        // server ignores it too, but a body may be made before a server starts, as in tests).
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else {
            throw HTTPError(.serviceUnavailable, "The server is too busy to send this; try again shortly.",
                            headers: ["Retry-After": "5"])
        }
        readEnd = ends[0]
        let writeEnd = ends[1]
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // The thread holds only the shared part: the read end closes with this body, whoever holds it.
        let pipe = Pipe(readEnd: readEnd)
        self.pipe = pipe
        Thread.detachNewThread {
            var succeeded = false
            do {
                try produce(writeEnd)
                succeeded = true
            } catch {
                writeStandardErrorLine("error: \(name): \(error)")
            }
            pipe.succeeded.withLock { if $0 == nil { $0 = succeeded } }
            Glibc.close(writeEnd)
            claim.release()
        }
        Self.watch(pipe, name: name, stallTimeout: stallTimeout)
    }

    /// Checks, while the producer runs, that the server reads what waits in the pipe at least
    /// once every `stallTimeout`; cuts the pipe when it has not.
    private static func watch(_ pipe: Pipe, name: String, stallTimeout: Duration) {
        guard pipe.succeeded.withLock({ $0 }) == nil else { return }
        if !pipe.hasUnreadBytes() { pipe.lastRead.withLock { $0 = .now } }
        let idle = ContinuousClock.now - pipe.lastRead.withLock { $0 }
        guard idle < stallTimeout else {
            writeStandardErrorLine("error: \(name): the client took nothing for \(stallTimeout); giving it up")
            pipe.cut()
            return
        }
        let wait = stallTimeout - idle
        let nanoseconds = wait.components.seconds * 1_000_000_000 + wait.components.attoseconds / 1_000_000_000
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) {
            watch(pipe, name: name, stallTimeout: stallTimeout)
        }
    }

    deinit {
        pipe.close()
    }

    /// Up to `capacity` next bytes into `buffer`: their count, or `endOfStream` after a body
    /// produced whole, or `endWithError` after one whose producer failed.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        while true {
            let count = Glibc.read(readEnd, buffer, capacity)
            if count > 0 {
                pipe.lastRead.withLock { $0 = .now }
                return count
            }
            if count < 0 && errno == EINTR { continue }
            return count == 0 && pipe.succeeded.withLock({ $0 }) == true ? Self.endOfStream : Self.endWithError
        }
    }

    /// Every remaining byte, for answering in process; throws if the producer failed.
    public func readAll() throws -> [UInt8] {
        try Self.readAll { read(into: $0, capacity: $1) }
    }

    /// Every byte `read` gives until the end; throws if the body ended with an error.
    static func readAll(_ read: (UnsafeMutableRawPointer, Int) -> Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read($0.baseAddress!, $0.count) }
            if count == endOfStream { return bytes }
            guard count > 0 else { throw HTTPError(.internalServerError, "The body could not be produced.") }
            bytes += chunk.prefix(count)
        }
    }

    /// `MHD_CONTENT_READER_END_OF_STREAM` and `…_END_WITH_ERROR`, macros Swift does not import.
    static let endOfStream = -1
    static let endWithError = -2
}
