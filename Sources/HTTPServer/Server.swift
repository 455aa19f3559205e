import CMicroHTTPD
import Dispatch
import Foundation
import Glibc
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: a small pool of threads with epoll serves every
/// connection; event streams wait suspended, without a thread, and so do uploads and writes
/// while their handler runs on a `HandlerQueue`.
public final class Server: Sendable {
    public struct Configuration: Sendable {
        public var host: String
        /// 0 picks a free port; read the bound one from `Server.port`.
        public var port: Int
        public var threadCount: Int
        /// Larger bodies get 413 (before reading them, from `Content-Length`).
        public var maxBodySize: Int
        /// Another limit for a multipart upload, decided from its head (nil: `maxBodySize`): its
        /// files stream to `uploadDirectory`, so a route taking whole archives can follow the free
        /// disk. Any other body is held in memory and never takes more than `maxBodySize`.
        public var multipartBodyLimit: @Sendable (Request) -> Int? = { _ in nil }
        /// Seconds between heartbeat comments on event streams.
        public var heartbeatInterval: Double
        /// Seconds an idle keep-alive connection stays open.
        public var connectionTimeout: Int
        /// Seconds a new connection may stay silent before its first request head is complete:
        /// short, so sockets a flood opens and leaves idle do not hold their slots for long.
        /// libmicrohttpd 0.9.75 measures silence, not a deadline: a client dribbling bytes is
        /// held back by `maxConnectionsPerAddress` instead.
        public var headerTimeout = 10
        /// Lowered at start to leave room below the process's descriptor limit (see `DescriptorLimit`).
        public var maxConnections: Int
        /// Connections one client address may hold at once (`AddressQuota`: one more closes the
        /// address's oldest outside a request). Room for the load test's 200 clients, which share
        /// 127.0.0.1 as a local user's tabs do.
        public var maxConnectionsPerAddress = 256
        public var eventStreamLimits = EventStreamLimits()
        /// Bytes libmicrohttpd reserves per connection for its request line, headers and buffers:
        /// it bounds the header size, and it is most of what an idle event stream costs.
        public var connectionMemoryLimit: Int
        /// One line per request on stderr.
        public var accessLog: Bool
        /// Where multipart file parts are written while a request is handled.
        public var uploadDirectory: String
        /// How many uploads (requests with files, or a body of `uploadBodyBytes` or more sent
        /// raw) are handled at once; by default a core fewer than the machine has, so pages keep
        /// one. Their handlers run on a queue of their own while the connection waits suspended,
        /// so the work on the files never stalls the other connections of a worker thread; the
        /// rest wait in line.
        public var uploadConcurrency: Int
        /// How many other requests that may change state (`HTTPMethod.isUnsafe`) are handled at once, on a queue of their own: a commit waits for the disk (fsync),
        /// which would stall the other connections of a worker thread as an upload would.
        public var writeConcurrency: Int
        /// Renders the error pages of the server itself: requests refused before they were complete
        /// (no request then) and errors that escape the responder. Errors of handlers are best
        /// rendered inside the responder's chain by an `ErrorPages` middleware.
        public var errorPage: ErrorPages.Renderer
        /// Serves HTTPS with this certificate when set (plain HTTP to the port then fails);
        /// requests know it from `Request.isSecure`.
        public var tls: TLSConfiguration?
        /// Run on each request head before its body is read (and before the responder): a
        /// refusal is answered at once and the body never read (see `HeadCheck`).
        public var headChecks: [any HeadCheck] = []
        /// Requests whose handler holds a process-wide resource for long (a library under one
        /// lock): answered one at a time on a queue of their own, so a burst of them waits in
        /// line there and never holds the threads every other connection needs.
        public var isSlow: @Sendable (Request) -> Bool = { _ in false }

        public init(host: String = "127.0.0.1", port: Int = 0,
                    threadCount: Int = ProcessInfo.processInfo.activeProcessorCount,
                    maxBodySize: Int = 32 * 1024 * 1024, heartbeatInterval: Double = 15,
                    connectionTimeout: Int = 60, maxConnections: Int = 16_384,
                    connectionMemoryLimit: Int = 16 * 1024, accessLog: Bool = false,
                    uploadDirectory: String = NSTemporaryDirectory(),
                    uploadConcurrency: Int = max(1, ProcessInfo.processInfo.activeProcessorCount - 1),
                    writeConcurrency: Int = 2, errorPage: @escaping ErrorPages.Renderer = Server.plainErrorPage) {
            self.host = host
            self.port = port
            self.threadCount = threadCount
            self.maxBodySize = maxBodySize
            self.heartbeatInterval = heartbeatInterval
            self.connectionTimeout = connectionTimeout
            self.maxConnections = maxConnections
            self.connectionMemoryLimit = connectionMemoryLimit
            self.accessLog = accessLog
            self.uploadDirectory = uploadDirectory.hasSuffix("/") ? String(uploadDirectory.dropLast()) : uploadDirectory
            self.uploadConcurrency = uploadConcurrency
            self.writeConcurrency = writeConcurrency
            self.errorPage = errorPage
        }
    }

    private struct Running {
        var daemon: UncheckedHandle<OpaquePointer>?
        var port = 0
        var heartbeat: UncheckedHandle<any DispatchSourceTimer>?
        /// The daemon's callbacks hold the server unretained; this keeps it alive meanwhile.
        var retainedSelf: Unmanaged<Server>?
    }

    public let configuration: Configuration
    private let errorPages: ErrorPages
    /// The responder with the error pages (and the access log) around it.
    private let handler: Handler
    /// The same with the head checks in front, for requests whose head was not checked yet.
    private let checkedHandler: Handler
    private let running = Mutex(Running())
    let eventStreams: EventStreamRegistry
    let addressQuota: AddressQuota
    private let answeredCount = Atomic<Int>(0)
    let uploads: HandlerQueue
    let writes: HandlerQueue
    let slow: HandlerQueue

    public init(configuration: Configuration = Configuration(), responder: @escaping Handler) {
        self.configuration = configuration
        errorPages = ErrorPages(render: configuration.errorPage)
        uploads = HandlerQueue(name: "uploads", concurrency: configuration.uploadConcurrency)
        writes = HandlerQueue(name: "writes", concurrency: configuration.writeConcurrency)
        slow = HandlerQueue(name: "slow", concurrency: 1)
        eventStreams = EventStreamRegistry(limits: configuration.eventStreamLimits)
        addressQuota = AddressQuota(limit: configuration.maxConnectionsPerAddress)
        let errorPages = errorPages
        func wrapped(_ inner: @escaping Handler) -> Handler {
            let renderErrors = errorPages.wrapping(inner)
            return configuration.accessLog ? AccessLog().wrapping(renderErrors) : renderErrors
        }
        handler = wrapped(responder)
        checkedHandler = wrapped(HeadChecks(checks: configuration.headChecks).wrapping(responder))
    }

    /// How many requests handlers have answered so far (for noticing a quiet server).
    public var requestCount: Int { answeredCount.load(ordering: .relaxed) }

    /// The bound port, once started.
    public var port: Int { running.withLock { $0.port } }

    /// Binds and starts serving; does nothing if already running.
    public func start() throws {
        guard running.withLock({ $0.daemon == nil }) else { return }
        try start(listeningOn: ListeningSocket(host: configuration.host, port: configuration.port))
    }

    /// Serves on a socket bound beforehand (the configuration's host and port are not used);
    /// takes it over, closing it if the start fails or the server is already running.
    public func start(listeningOn listener: ListeningSocket) throws {
        guard running.withLock({ $0.daemon == nil }) else {
            close(listener.descriptor)
            return
        }
        // sendfile on a socket the client closed raises SIGPIPE; the failed write is enough.
        signal(SIGPIPE, SIG_IGN)
        let connectionLimit = DescriptorLimit.connectionLimit(configured: configuration.maxConnections,
                                                              descriptorLimit: DescriptorLimit.raiseToHard())
        let retained = Unmanaged.passRetained(self)
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ITC.rawValue
        if configuration.tls != nil {
            guard wl_mhd_supports_tls() else {
                close(listener.descriptor)
                retained.release()
                throw ServerError.tlsUnsupported
            }
            flags |= MHD_USE_TLS.rawValue
        }
        let daemon = configuration.tls?.keyPEM.withCString { key in
            configuration.tls?.certificatePEM.withCString { certificate in
                startDaemon(flags, listener, connectionLimit, retained, tlsKey: key, tlsCertificate: certificate)
            }
        } ?? startDaemon(flags, listener, connectionLimit, retained, tlsKey: nil, tlsCertificate: nil)
        guard let daemon else {
            close(listener.descriptor)
            retained.release()
            throw ServerError.startFailed
        }
        let heartbeat = DispatchSource.makeTimerSource(queue: .global())
        let interval = DispatchTimeInterval.milliseconds(max(10, Int(configuration.heartbeatInterval * 1000)))
        heartbeat.schedule(deadline: .now() + interval, repeating: interval)
        heartbeat.setEventHandler { [weak self] in self?.sendHeartbeats() }
        heartbeat.resume()
        eventStreams.resume()
        for queue in [uploads, writes, slow] { queue.reopen() }
        running.withLock {
            $0 = Running(daemon: UncheckedHandle(pointer: daemon), port: listener.port,
                         heartbeat: UncheckedHandle(pointer: heartbeat), retainedSelf: retained)
        }
    }

    private func startDaemon(_ flags: UInt32, _ listener: ListeningSocket, _ connectionLimit: Int,
                             _ retained: Unmanaged<Server>, tlsKey: UnsafePointer<CChar>?,
                             tlsCertificate: UnsafePointer<CChar>?) -> OpaquePointer? {
        wl_mhd_start(
            flags, listener.descriptor, UInt32(max(1, configuration.threadCount)),
            UInt32(connectionLimit), serverConnectionNotified, retained.toOpaque(),
            UInt32(configuration.headerTimeout), configuration.connectionMemoryLimit,
            serverAccessHandler, retained.toOpaque(), serverRequestCompleted, retained.toOpaque(),
            serverRequestStarted, retained.toOpaque(), tlsKey, tlsCertificate)
    }

    /// Ends every event stream (their `onClose` handlers run) and lets the uploads and writes being
    /// handled finish, then shuts the daemon down, which closes the listening socket. Requests that
    /// arrive meanwhile are still answered, but open no stream and are not handed to a queue.
    public func stop() {
        let stopping = running.withLock { running in
            defer { running = Running() }
            return running
        }
        guard let daemon = stopping.daemon?.pointer else { return }
        stopping.heartbeat?.pointer.cancel()
        // Not `MHD_quiesce_daemon`: with epoll and a thread pool it races a worker to remove the
        // listening socket from the worker's epoll set, and the loser aborts the process
        // (libmicrohttpd 0.9.75; `aServerStopsWhileConnectionsArrive`).
        // libmicrohttpd aborts when stopped with suspended connections: end every stream first.
        for stream in eventStreams.beginStopping() { stream.close() }
        let deadline = ContinuousClock.now + .seconds(2)
        while !eventStreams.isEmpty, ContinuousClock.now < deadline {
            usleep(2_000)
        }
        // An upload or write being handled finishes and its answer goes out.
        for queue in [uploads, writes, slow] { queue.drain(timeout: .now() + 30) }
        MHD_stop_daemon(daemon)
        stopping.retainedSelf?.release()
    }

    /// Blocks until SIGINT or SIGTERM, then stops.
    public func runUntilSignal() {
        // A handler that only writes to a pipe (async-signal-safe) is armed the moment `signal`
        // returns, unlike a dispatch source, so a SIGTERM right after start is never lost.
        guard let pipe = SignalPipe.shared else {
            // No descriptor for the pipe: stopping at once beats trapping, or never stopping.
            writeStandardErrorLine("error: could not create the signal pipe: \(String(cString: strerror(errno))); stopping")
            stop()
            return
        }
        signal(SIGINT, forwardSignalToPipe)
        signal(SIGTERM, forwardSignalToPipe)
        // A parent may have started this process with the signals blocked (threads inherit the
        // mask, and the threads of a Swift runtime block nearly all): one arriving would stay
        // pending for good. This thread takes them.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
        var signalNumber: UInt8 = 0
        while read(pipe.readEnd, &signalNumber, 1) < 0, errno == EINTR {}
        stop()
    }

    /// The built-in error page: plain HTML with the status and message.
    public static func plainErrorPage(_ status: HTTPStatus, _ message: String, _ request: Request?) -> Response {
        let title = HTML.escape(status.description)
        return .html("""
            <!doctype html><html lang="en"><meta charset="utf-8"><title>\(title)</title>\
            <h1>\(title)</h1><p>\(HTML.escape(message))</p></html>
            """, status: status)
    }

    // MARK: Called from libmicrohttpd's callbacks

    /// The whole answer to `request`, error pages and all: what a connection gets, and what
    /// tests call directly, without a socket.
    public func respond(to request: Request) -> Response {
        answer(request, with: checkedHandler)
    }

    /// The answer to a request whose head already passed the head checks.
    func answer(headChecked request: Request) -> Response {
        answer(request, with: handler)
    }

    /// Where `request`'s handler runs when not on the connection's worker thread: uploads and
    /// writes (their handlers wait on the disk); nil for reads, answered at once.
    func offloadQueue(for request: Request) -> HandlerQueue? {
        if !request.files.isEmpty || request.body.count >= Self.uploadBodyBytes { return uploads }
        if request.method.isUnsafe { return writes }
        return configuration.isSlow(request) ? slow : nil
    }

    /// A body this large is a file sent raw (a photo PUT to the API), whose handling grows with it
    /// like a multipart upload's; forms and JSON are a few KB.
    static let uploadBodyBytes = 64 * 1024

    /// The refusal of a head the head checks refuse, answered (and logged) as a whole request would be.
    func refusal(forHead head: Request) -> Response? {
        do {
            try configuration.headChecks.check(head: head)
            return nil
        } catch {
            return respond(to: head)
        }
    }

    /// The most the body of `head` may hold: `Configuration.multipartBodyLimit` for a multipart
    /// upload that has one, else `maxBodySize`.
    func bodyLimit(for head: Request, isMultipart: Bool) -> Int {
        (isMultipart ? configuration.multipartBodyLimit(head) : nil) ?? configuration.maxBodySize
    }

    func requiredMultipartField(for head: Request) -> RequiredField? {
        configuration.headChecks.requiredMultipartField(for: head)
    }

    private func answer(_ request: Request, with handler: Handler) -> Response {
        answeredCount.add(1, ordering: .relaxed)
        do {
            return try handler(request)
        } catch {
            // Unreachable in practice: ErrorPages already turned every error into a page.
            return errorPages.page(for: HTTPError(wrapping: error), request: request)
        }
    }

    func errorResponse(_ error: HTTPError, request: Request?) -> Response {
        errorPages.page(for: error, request: request)
    }

    private func sendHeartbeats() {
        for stream in eventStreams.all { stream.sendHeartbeat() }
    }
}

public enum ServerError: Error, CustomStringConvertible {
    case portInUse(Int)
    case invalidHost(String)
    case socketFailed(String)
    case startFailed
    case tlsUnsupported

    public var description: String {
        switch self {
        case .portInUse(let port): "port \(port) is already in use"
        case .invalidHost(let host): "\(host) is not an IP address to listen on"
        case .socketFailed(let reason): "could not open the listening socket: \(reason)"
        case .startFailed: "libmicrohttpd could not start (with TLS: is the certificate or key malformed?)"
        case .tlsUnsupported: "this libmicrohttpd was built without TLS support"
        }
    }
}

/// The pipe that carries a received SIGINT/SIGTERM from the signal handler to `runUntilSignal`.
private struct SignalPipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    /// Nil when no pipe could be made (no descriptor left).
    static let shared: SignalPipe? = {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        return SignalPipe(readEnd: ends[0], writeEnd: ends[1])
    }()
}

private func forwardSignalToPipe(_ signalNumber: Int32) {
    var byte = UInt8(truncatingIfNeeded: signalNumber)
    if let pipe = SignalPipe.shared { _ = write(pipe.writeEnd, &byte, 1) }
}
