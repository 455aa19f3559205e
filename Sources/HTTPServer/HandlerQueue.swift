import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization

/// Runs handlers that wait on more than the CPU off libmicrohttpd's threads, a few at a time:
/// uploads (decoding images, fsyncs) and writes (a commit waits for the disk) would otherwise
/// stall every connection sharing the worker thread, event streams included. Meanwhile the
/// connection waits suspended; the answer goes out once the handler is done. A burst waits in
/// line rather than taking every core.
final class HandlerQueue: Sendable {
    private let queue: UncheckedHandle<OperationQueue>
    /// Requests handed to the queue whose connection has not completed yet.
    private let inFlight = DispatchGroup()
    /// Set while the server stops; checked and entered under one lock, so `drain` never misses one.
    private let isStopping = Mutex(false)
    private let waiting = Atomic(0)

    /// Requests handed over whose handler has not started: those waiting in line.
    var waitingCount: Int { waiting.load(ordering: .relaxed) }

    init(name: String, concurrency: Int) {
        let queue = OperationQueue()
        queue.name = "HTTPServer.\(name)"
        queue.maxConcurrentOperationCount = max(1, concurrency)
        queue.qualityOfService = .userInitiated
        self.queue = UncheckedHandle(pointer: queue)
    }

    /// Suspends `connection` and answers `request` on the queue, resuming the connection with the
    /// answer in `context`. False, with nothing done, when the server is stopping: then the caller
    /// answers at once (libmicrohttpd aborts when stopped with a suspended connection).
    func handle(_ request: Request, connection: OpaquePointer, context: RequestContext,
                respond: @escaping @Sendable (Request) -> Response) -> Bool {
        let accepted = isStopping.withLock { isStopping in
            if !isStopping { inFlight.enter() }
            return !isStopping
        }
        guard accepted else { return false }
        let pending = PendingResponse(queue: self)
        context.offloaded = pending
        MHD_suspend_connection(connection)
        let suspended = UncheckedHandle(pointer: connection)
        waiting.add(1, ordering: .relaxed)
        queue.pointer.addOperation {
            self.waiting.subtract(1, ordering: .relaxed)
            pending.response.withLock { $0 = respond(request) }
            // libmicrohttpd calls the access handler again, which queues the answer.
            MHD_resume_connection(suspended.pointer)
        }
        return true
    }

    /// The connection of an offloaded request has completed.
    func completed() {
        inFlight.leave()
    }

    /// Refuses new work and waits (up to `timeout`) for the requests already handed over.
    func drain(timeout: DispatchTime) {
        isStopping.withLock { $0 = true }
        _ = inFlight.wait(timeout: timeout)
    }

    func reopen() {
        isStopping.withLock { $0 = false }
    }
}

/// The answer of an offloaded handler, from the queue's thread to the connection's.
final class PendingResponse: Sendable {
    let response = Mutex<Response?>(nil)
    /// The queue that runs the handler, told when the connection completes.
    let queue: HandlerQueue

    init(queue: HandlerQueue) { self.queue = queue }
}
