import Synchronization

/// A response body made part by part as the client takes it: `next` is asked for the next part
/// only when the previous one has been handed to the connection, so a slow reader holds a part
/// in memory and its `StreamBound.Claim`, never a thread. `next` returns nil at the end; one that
/// throws (the feed it reads was revoked meanwhile) ends the response with an error, so the
/// client sees a failed download rather than a short one.
public final class PulledBody: Sendable {
    public typealias Next = @Sendable () throws -> [UInt8]?

    private struct State {
        var part: [UInt8] = []
        var sent = 0
        /// `endOfStream` or `endWithError` once the body has ended.
        var end: Int?
    }

    private let next: Next
    private let claim: StreamBound.Claim
    /// The server reads a body from one thread at a time; the lock keeps it so for any caller.
    private let state = Mutex(State())

    public init(holding claim: StreamBound.Claim, next: @escaping Next) {
        self.claim = claim
        self.next = next
    }

    /// Up to `capacity` next bytes into `buffer`: their count, or `endOfStream` after the last
    /// part, or `endWithError` when `next` failed.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        state.withLock { state in
            while state.sent == state.part.count {
                if let end = state.end { return end }
                do {
                    if let part = try next() {
                        (state.part, state.sent) = (part, 0)
                    } else {
                        state.end = PipedBody.endOfStream
                    }
                } catch {
                    writeStandardErrorLine("error: a streamed body ended early: \(error)")
                    state.end = PipedBody.endWithError
                }
                if state.end != nil { claim.release() }
            }
            let count = min(capacity, state.part.count - state.sent)
            state.part.withUnsafeBytes { part in
                buffer.copyMemory(from: part.baseAddress! + state.sent, byteCount: count)
            }
            state.sent += count
            return count
        }
    }

    /// Every remaining byte, for answering in process; throws if a part could not be made.
    public func readAll() throws -> [UInt8] {
        try PipedBody.readAll { read(into: $0, capacity: $1) }
    }
}
