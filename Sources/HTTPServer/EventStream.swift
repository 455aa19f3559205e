import CMicroHTTPD
import Dispatch
import Foundation
import Glibc
import Synchronization

/// The server side of one `text/event-stream` response. Return it from a handler as
/// `Response.eventStream(stream)`, keep it, and `send(_:)` events from any thread.
///
/// No thread waits for a stream: with nothing to send, the connection is suspended, and
/// `send` resumes it. Both happen under the stream's lock, so no wake-up is lost.
///
/// While the connection is suspended libmicrohttpd has sent all it was given and leaves the
/// socket alone, so an event for a plain-TCP stream is written to the socket at once, by the
/// sender; only what the socket does not take is queued for libmicrohttpd, which is then
/// resumed. Resuming costs a wake-up of the server thread, and its walk over every suspended
/// connection: with 10,000 streams that was most of a commit's fan-out (Benchmarks/README.md).
public final class EventStream: Sendable {
    private struct State {
        var pending = PendingEvents()
        var connection: UncheckedHandle<OpaquePointer>?
        /// The connection's socket, to write to while it is suspended; nil over TLS, where the
        /// bytes must go through libmicrohttpd's TLS session.
        var socket: Int32?
        var isSuspended = false
        /// No more events: the response ends once what is pending has been sent.
        var isClosing = false
        /// The connection has finished; `onClose` handlers have run.
        var hasEnded = false
        var closeHandlers: [@Sendable () -> Void] = []
        var drainHandlers: [@Sendable () -> Void] = []
        /// Asked before each heartbeat: once one says yes, the stream is closed instead.
        var lapses: [@Sendable () -> Bool] = []
        /// Set by the server when it sends the stream: the shared budget its pending bytes count against.
        var budget: PendingBytesBudget?
        var maxPendingBytes = EventStreamLimits().maxPendingBytesPerStream

        var pendingCount: Int { pending.byteCount }
    }

    private let state = Mutex(State())

    public init() {}

    /// Queues an event for the client. Does nothing once the stream is closed.
    public func send(_ event: ServerSentEvent) {
        enqueue(event.encoded)
    }

    /// Queues one event for many clients, encoding it once: a broadcast costs one encoding, not
    /// one per subscriber. Writing to an idle stream's socket is a `send` into TCP (on loopback
    /// about 10 µs of the kernel's time, the receiving side included), so a broadcast to
    /// thousands of streams is spread over the cores.
    public static func broadcast(_ event: ServerSentEvent, to streams: [EventStream]) {
        let bytes = event.encoded
        let parts = min(ProcessInfo.processInfo.activeProcessorCount, streams.count / streamsPerBroadcastPart)
        guard parts > 1 else {
            for stream in streams { stream.enqueue(bytes) }
            return
        }
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            for index in streams.count * part / parts ..< streams.count * (part + 1) / parts {
                streams[index].enqueue(bytes)
            }
        }
    }

    /// Below this many streams per core, one thread sends to them all: waking another costs more.
    static let streamsPerBroadcastPart = 256

    /// Ends the stream after what is already queued.
    public func close() {
        state.withLock { state in
            state.isClosing = true
            Self.wake(&state)
        }
    }

    /// True once `close()` was called, the client went away or the server stopped.
    public var isClosed: Bool {
        state.withLock { $0.isClosing || $0.hasEnded }
    }

    /// Runs `handler` once when the connection ends (client gone, stream closed or server
    /// stopped); at once if it already has.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let hasEnded = state.withLock { state in
            if !state.hasEnded { state.closeHandlers.append(handler) }
            return state.hasEnded
        }
        if hasEnded { handler() }
    }

    /// The most bytes this stream may have queued: a client further behind is dropped rather
    /// than buffered without bound (`EventStreamLimits.maxPendingBytesPerStream`).
    public var maxPendingBytes: Int {
        state.withLock(\.maxPendingBytes)
    }

    /// The bytes queued and not yet handed to the connection: a producer with much to send
    /// (a backlog) waits for room with `whenDrained` instead of overflowing the buffer.
    public var pendingByteCount: Int {
        state.withLock(\.pendingCount)
    }

    /// Runs `handler` once, on a global queue (never the server's thread), when everything queued
    /// has been handed to the connection; at once if nothing is pending. Never once the stream has ended.
    public func whenDrained(_ handler: @escaping @Sendable () -> Void) {
        let isDrained = state.withLock { state in
            guard !state.hasEnded else { return false }
            if state.pendingCount == 0 { return true }
            state.drainHandlers.append(handler)
            return false
        }
        if isDrained { DispatchQueue.global().async(execute: handler) }
    }

    /// A comment line: keeps proxies from closing an idle stream, and the failed write is how
    /// a departed client is noticed.
    /// Closes the stream at the first heartbeat at which `hasLapsed` says what it was opened
    /// under is gone (a session that expired): no thread waits for it, and the client, which
    /// reconnects, meets whatever now guards the stream.
    public func endsWhen(_ hasLapsed: @escaping @Sendable () -> Bool) {
        state.withLock { $0.lapses.append(hasLapsed) }
    }

    func sendHeartbeat() {
        let lapses = state.withLock(\.lapses)
        if lapses.contains(where: { $0() }) { close() } else { enqueue(Self.heartbeat) }
    }

    private static let heartbeat = Array(": heartbeat\n\n".utf8)

    /// Where each unsent event's bytes live: tests check that a broadcast's streams share one copy.
    var pendingEventStorage: [UnsafeRawPointer?] {
        state.withLock { $0.pending.storage }
    }

    private func enqueue(_ event: [UInt8]) {
        state.withLock { state in
            guard !state.isClosing, !state.hasEnded else { return }
            var written = 0
            if state.isSuspended, state.pendingCount == 0, let socket = state.socket {
                written = Self.write(event, to: socket)
                if written == event.count { return }
                // The socket's buffer is full (a slow client) or it failed (a departed one):
                // libmicrohttpd sends the rest when the socket takes it, or sees the failure and ends the stream.
            }
            let unsent = event.count - written
            if state.pendingCount + unsent > state.maxPendingBytes || state.budget?.reserve(unsent) == false {
                // A client this far behind is dropped rather than buffered: what it missed it gets
                // again when its browser reconnects with the Last-Event-ID.
                Self.discardPending(&state)
                state.isClosing = true
            } else {
                // The event's own array, even when part of it went out: a broadcast stuck halfway
                // in many streams stays one copy.
                state.pending.append(event, sentAlready: written)
            }
            Self.wake(&state)
        }
    }

    /// How much of `bytes` the socket took without waiting (0 when it took nothing or failed).
    private static func write(_ bytes: [UInt8], to socket: Int32) -> Int {
        bytes.withUnsafeBytes { buffer in
            max(0, Glibc.send(socket, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)))
        }
    }

    private static func discardPending(_ state: inout State) {
        state.budget?.release(state.pendingCount)
        state.pending = PendingEvents()
    }

    private static func wake(_ state: inout State) {
        guard state.isSuspended, let connection = state.connection else { return }
        state.isSuspended = false
        MHD_resume_connection(connection.pointer)
    }

    // MARK: Called by the server

    /// `socket`: the connection's descriptor when events may be written to it directly (plain TCP,
    /// a response sent unframed: no chunked encoding), else nil.
    func attach(to connection: OpaquePointer, socket: Int32?, budget: PendingBytesBudget, maxPendingBytes: Int) {
        state.withLock { state in
            state.connection = UncheckedHandle(pointer: connection)
            state.socket = socket
            state.budget = budget
            state.maxPendingBytes = maxPendingBytes
            budget.take(state.pendingCount)
        }
        if let socket { StreamDepartures.shared.watch(self, socket: socket) }
    }

    /// The content reader: copies pending bytes, ends the stream when closing, or suspends
    /// the connection until the next `send`.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        let buffer = UncheckedHandle(pointer: UnsafeMutableRawPointer(buffer))
        let (count, drained) = state.withLock { state -> (Int, [@Sendable () -> Void]) in
            if state.pendingCount > 0 {
                let count = state.pending.take(into: buffer.pointer, capacity: capacity)
                state.budget?.release(count)
                guard state.pendingCount == 0 else { return (count, []) }
                defer { state.drainHandlers = [] }
                return (count, state.drainHandlers)
            }
            if state.isClosing || state.hasEnded { return (endOfStream, []) }
            guard let connection = state.connection else { return (endOfStream, []) }
            state.isSuspended = true
            MHD_suspend_connection(connection.pointer)
            return (0, [])
        }
        for handler in drained { DispatchQueue.global().async(execute: handler) }
        return count
    }

    /// The connection is gone: forget it and run the close handlers.
    func detach() {
        let handlers = state.withLock { state in
            if state.socket != nil { StreamDepartures.shared.forget(self) }
            state.connection = nil
            state.socket = nil
            state.isSuspended = false
            state.hasEnded = true
            Self.discardPending(&state)
            state.drainHandlers = []
            defer { state.closeHandlers = [] }
            return state.closeHandlers
        }
        for handler in handlers { handler() }
    }
}

/// `MHD_CONTENT_READER_END_OF_STREAM`, a macro Swift does not import.
private let endOfStream = -1

/// A stream's unsent events, each kept as the array it was encoded into: a broadcast's bytes are
/// shared by every stream it went to, one copy for all, rather than copied into each stream's
/// buffer (500 streams behind on a 200 KB event held 100 MB that no budget counted). A sent event
/// is let go at once; nothing is kept once everything is sent.
struct PendingEvents {
    private var events: [[UInt8]] = []
    /// The first event not wholly sent, and how much of it was.
    private var head = 0
    private var sentOfHead = 0
    private(set) var byteCount = 0

    var storage: [UnsafeRawPointer?] {
        events[head...].map { $0.withUnsafeBytes { UnsafeRawPointer($0.baseAddress) } }
    }

    /// Queues `bytes`, of which the first `sentAlready` went out another way (only into an empty queue).
    mutating func append(_ bytes: [UInt8], sentAlready: Int = 0) {
        guard bytes.count > sentAlready else { return }
        precondition(sentAlready == 0 || events.isEmpty, "only the first event can be partly sent")
        if events.isEmpty { sentOfHead = sentAlready }
        events.append(bytes)
        byteCount += bytes.count - sentAlready
    }

    /// Copies up to `capacity` bytes, in order, into `buffer`; how many.
    mutating func take(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        var copied = 0
        while copied < capacity, head < events.count {
            let event = events[head]
            let count = min(capacity - copied, event.count - sentOfHead)
            event.withUnsafeBytes { bytes in
                (buffer + copied).copyMemory(from: bytes.baseAddress! + sentOfHead, byteCount: count)
            }
            copied += count
            sentOfHead += count
            if sentOfHead == event.count {
                events[head] = []
                head += 1
                sentOfHead = 0
            }
        }
        byteCount -= copied
        if head == events.count {
            events.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= events.count {
            // A stream that never quite catches up: drop the emptied slots now and then.
            events.removeFirst(head)
            head = 0
        }
        return copied
    }
}
