import CMicroHTTPD
import Glibc

// libmicrohttpd's callbacks: global functions (C function pointers cannot capture), with the
// server in `cls` and the request's `RequestContext` in `*con_cls`.

/// The request line has arrived: the raw URI (with its query, before any decoding) starts
/// the request's context.
func serverRequestStarted(_ cls: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?,
                          _ connection: OpaquePointer?) -> UnsafeMutableRawPointer? {
    let context = RequestContext(rawURI: uri.map { String(cString: $0) } ?? "")
    return Unmanaged.passRetained(context).toOpaque()
}

/// A connection opened or closed: counted in the server's `AddressQuota`, its id kept as the
/// connection's socket context.
func serverConnectionNotified(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                              _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                              _ event: MHD_ConnectionNotificationCode) {
    guard let cls, let connection, let socketContext else { return }
    let quota = Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue().addressQuota
    if event == MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED {
        let id = quota.opened(address: remoteAddress(of: connection), socket: wl_mhd_connection_socket(connection))
        socketContext.pointee = UnsafeMutableRawPointer(bitPattern: UInt(id))
    } else if let id = connectionID(socketContext.pointee) {
        quota.closed(id)
        socketContext.pointee = nil
    }
}

private func connectionID(_ socketContext: UnsafeMutableRawPointer?) -> UInt64? {
    socketContext.map { UInt64(UInt(bitPattern: $0)) }
}

/// Called first with the header, then once per body chunk, then once more with no data.
/// The response is queued only after the first call: queued on the first, libmicrohttpd
/// would close the connection instead of keeping it alive.
func serverAccessHandler(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                         _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
                         _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
                         _ uploadDataSize: UnsafeMutablePointer<Int>?,
                         _ contextPointer: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result {
    guard let cls, let connection, let method, let uploadDataSize,
          let contextAddress = contextPointer?.pointee else { return MHD_Result.NO }
    let server = Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue()
    let context = Unmanaged<RequestContext>.fromOpaque(contextAddress).takeUnretainedValue()

    if !context.hasStarted {
        if let id = connectionID(wl_mhd_socket_context(connection)) { server.addressQuota.requestStarted(id) }
        // The head is complete: from here the request's own timeout applies, not the short one
        // for connections that have not sent a head yet.
        _ = wl_mhd_set_timeout(connection, UInt32(server.configuration.connectionTimeout))
        // Refusing before the body is read means the connection closes: that is intended. A
        // request without a body is refused in its last call, keeping the connection alive.
        if let refusal = context.start(connection: connection, method: String(cString: method)) {
            return queue(refusalPage(refusal, connection, context, server), on: connection, context, server)
        }
        guard context.expectsBody else { return MHD_Result.YES }
        let head: Request
        switch context.makeHead(remoteAddress: remoteAddress(of: connection), isSecure: server.configuration.tls != nil) {
        case .success(let request): head = request
        case .failure(let error): return queue(server.errorResponse(error, request: nil), on: connection, context, server)
        }
        if let refusal = context.limitBody(to: server.bodyLimit(for: head, isMultipart: context.isMultipart)) {
            return queue(server.errorResponse(refusal, request: head), on: connection, context, server)
        }
        if let refusal = server.refusal(forHead: head) { return queue(refusal, on: connection, context, server) }
        context.headWasChecked = true
        if let refusal = context.prepareBody(connection: connection, uploadDirectory: server.configuration.uploadDirectory,
                                             requiredField: server.requiredMultipartField(for: head)) {
            return queue(server.errorResponse(refusal, request: head), on: connection, context, server)
        }
        return MHD_Result.YES
    }
    if uploadDataSize.pointee > 0 {
        guard let uploadData, context.receive(uploadData, count: uploadDataSize.pointee) else { return MHD_Result.NO }
        uploadDataSize.pointee = 0
        return MHD_Result.YES
    }
    if let offloaded = context.offloaded {
        // Resumed by its handler queue, which resumes only once the handler has answered.
        guard let response = offloaded.response.withLock({ $0 }) else { return MHD_Result.NO }
        return queue(response, on: connection, context, server)
    }
    let response: Response
    switch context.makeRequest(remoteAddress: remoteAddress(of: connection),
                               isSecure: server.configuration.tls != nil) {
    case .success(let request):
        let respond = context.headWasChecked ? server.answer(headChecked:) : server.respond(to:)
        if let handlers = server.offloadQueue(for: request),
           handlers.handle(request, connection: connection, context: context, respond: respond) {
            return MHD_Result.YES
        }
        response = respond(request)
    case .failure(let error): response = refusalPage(error, connection, context, server)
    }
    return queue(response, on: connection, context, server)
}

/// The page refusing a request before it was complete, for the request as far as its head
/// tells when the head can be read, so the refusal answers in the request's kind (an `/api/`
/// request's as JSON).
private func refusalPage(_ error: HTTPError, _ connection: OpaquePointer, _ context: RequestContext, _ server: Server) -> Response {
    let head = try? context.makeHead(remoteAddress: remoteAddress(of: connection), isSecure: server.configuration.tls != nil).get()
    return server.errorResponse(error, request: head)
}

/// The request is over (sent, failed or the client left): clean up and release its context.
func serverRequestCompleted(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                            _ contextPointer: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                            _ termination: MHD_RequestTerminationCode) {
    guard let cls, let contextAddress = contextPointer?.pointee else { return }
    contextPointer?.pointee = nil
    let server = Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue()
    let context = Unmanaged<RequestContext>.fromOpaque(contextAddress).takeRetainedValue()
    if let connection, let id = connectionID(wl_mhd_socket_context(connection)) { server.addressQuota.requestEnded(id) }
    if let stream = context.eventStream { server.eventStreams.unregister(stream) }
    context.offloaded?.queue.completed()
    context.complete()
}

private func eventStreamReader(_ cls: UnsafeMutableRawPointer?, _ position: UInt64,
                               _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int) -> Int {
    guard let cls, let buffer else { return -1 }
    return Unmanaged<EventStream>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, capacity: capacity)
}

private func pipedBodyReader(_ cls: UnsafeMutableRawPointer?, _ position: UInt64,
                             _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int) -> Int {
    guard let cls, let buffer else { return PipedBody.endWithError }
    return Unmanaged<PipedBody>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, capacity: capacity)
}

private func releasePipedBody(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    Unmanaged<PipedBody>.fromOpaque(cls).release()
}

private func pulledBodyReader(_ cls: UnsafeMutableRawPointer?, _ position: UInt64,
                              _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int) -> Int {
    guard let cls, let buffer else { return PipedBody.endWithError }
    return Unmanaged<PulledBody>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, capacity: capacity)
}

private func releasePulledBody(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    Unmanaged<PulledBody>.fromOpaque(cls).release()
}

private func queue(_ response: Response, on connection: OpaquePointer, _ context: RequestContext,
                   _ server: Server, isErrorPage: Bool = false) -> MHD_Result {
    let native: OpaquePointer
    do {
        native = try makeNativeResponse(response, connection: connection, context: context, server: server)
    } catch {
        guard !isErrorPage else { return MHD_Result.NO }
        return queue(server.errorResponse(error, request: nil), on: connection, context, server, isErrorPage: true)
    }
    for (name, value) in response.headers {
        // Explicitly: passing a short (inline) String as a C string argument allocated an array.
        name.withCString { name in value.withCString { value in _ = MHD_add_response_header(native, name, value) } }
    }
    let result = MHD_queue_response(connection, UInt32(response.status.code), native)
    MHD_destroy_response(native)
    return result
}

private func makeNativeResponse(_ response: Response, connection: OpaquePointer, context: RequestContext,
                                server: Server) throws(HTTPError) -> OpaquePointer {
    let native: OpaquePointer?
    switch response.body {
    case .empty, .bytes([]):
        native = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
    case .bytes(let bytes):
        native = makeBorrowingResponse(bytes)
    case .file(let path, let size):
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            guard errno == EMFILE || errno == ENFILE else { throw HTTPError(.notFound, "The file is gone.") }
            writeStandardErrorLine("error: no file descriptor left to send \(path)")
            throw HTTPError(.serviceUnavailable, "The server is too busy to send this file; try again shortly.",
                            headers: ["Retry-After": "1"])
        }
        // libmicrohttpd closes the descriptor when the response is destroyed.
        native = MHD_create_response_from_fd64(UInt64(size), descriptor)
        if native == nil { close(descriptor) }
    case .piped(let body):
        // The response holds the body until libmicrohttpd destroys it, then releases it.
        native = MHD_create_response_from_callback(UInt64.max, 64 * 1024, pipedBodyReader,
                                                   Unmanaged.passRetained(body).toOpaque(), releasePipedBody)
        if native == nil { Unmanaged.passUnretained(body).release() }
    case .pulled(let body):
        // As a piped body: held by the response until libmicrohttpd destroys it.
        native = MHD_create_response_from_callback(UInt64.max, 64 * 1024, pulledBodyReader,
                                                   Unmanaged.passRetained(body).toOpaque(), releasePulledBody)
        if native == nil { Unmanaged.passUnretained(body).release() }
    case .eventStream(let stream):
        if let refusal = server.eventStreams.register(stream, address: remoteAddress(of: connection)) {
            // Never attached, so end it here: its close handlers (the handler's subscriptions) run.
            stream.detach()
            throw refusal
        }
        context.eventStream = stream
        // The request's context holds the stream until the request completes.
        native = MHD_create_response_from_callback(UInt64.max, 4 * 1024, eventStreamReader,
                                                   Unmanaged.passUnretained(stream).toOpaque(), nil)
        // Unframed (the stream ends with the connection), so the stream may write events to a
        // plain socket itself: no chunk of libmicrohttpd's can be left half sent around them.
        let socket = wl_mhd_connection_socket(connection)
        let isDirect = native != nil && server.configuration.tls == nil && socket >= 0 && wl_mhd_send_unframed(native) == MHD_Result.YES
        stream.attach(to: connection, socket: isDirect ? socket : nil, budget: server.eventStreams.budget,
                      maxPendingBytes: server.eventStreams.limits.maxPendingBytesPerStream)
    }
    guard let native else { throw HTTPError(.internalServerError, "The response could not be created.") }
    return native
}

/// Holds a body's bytes until libmicrohttpd has sent them, so it sends them from the array itself:
/// a page kept in a cache goes out without being copied for each request.
private final class BorrowedBody {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }
}

private func makeBorrowingResponse(_ bytes: [UInt8]) -> OpaquePointer? {
    let body = BorrowedBody(bytes)
    // The address outlives `withUnsafeBytes`: the box's array is immutable (a change to any copy
    // of it copies first) and stays alive until libmicrohttpd releases the box.
    let address = body.bytes.withUnsafeBytes { UnsafeMutableRawPointer(mutating: $0.baseAddress) }
    let retained = Unmanaged.passRetained(body)
    let native = MHD_create_response_from_buffer_with_free_callback_cls(bytes.count, address, releaseBorrowedBody,
                                                                        retained.toOpaque())
    if native == nil { retained.release() }
    return native
}

private func releaseBorrowedBody(_ body: UnsafeMutableRawPointer?) {
    guard let body else { return }
    Unmanaged<BorrowedBody>.fromOpaque(body).release()
}

private func remoteAddress(of connection: OpaquePointer) -> String {
    wl_mhd_client_address(connection).map(numericAddress) ?? ""
}
