import CMicroHTTPD
import Glibc

/// What the server gathers about one request across libmicrohttpd's callbacks: created when
/// the request line arrives, released when the request completes.
final class RequestContext {
    private enum BodyReceiver {
        case none
        case bytes
        case multipart(MultipartReceiver)
    }

    let rawURI: String
    private(set) var hasStarted = false
    private var method = ""
    private var headers = HTTPHeaders()
    private var receiver = BodyReceiver.none
    private var bodyBytes: [UInt8] = []
    private var receivedCount = 0
    private var bodyLimit = 0
    private var declaredBodyCount = 0
    private var head: Request?
    /// The server's head checks passed on the head already: the complete request skips them.
    var headWasChecked = false
    /// A header name with whitespace or a value with a NUL byte was received.
    private var hasMalformedField = false
    /// The event stream this request answered with, to detach when the connection ends.
    var eventStream: EventStream?
    /// Set while the handler runs on a `HandlerQueue`, and until the connection completes.
    var offloaded: PendingResponse?

    /// The longest request target answered: every page's address is far shorter. Refusing it
    /// here answers with the app's headers; a target that does not fit the connection's memory
    /// at all gets libmicrohttpd's own bare 414.
    static let maxTargetBytes = 8 * 1024

    init(rawURI: String) {
        self.rawURI = rawURI
    }

    /// First call: reads the head and checks how the body is framed. Returns an error to answer
    /// at once, before any of the body is read.
    func start(connection: OpaquePointer, method: String) -> HTTPError? {
        hasStarted = true
        self.method = method
        MHD_get_connection_values_n(connection, MHD_ValueKind.HEADER_KIND, collectHeader,
                                    Unmanaged.passUnretained(self).toOpaque())
        guard rawURI.utf8.count <= Self.maxTargetBytes else {
            return HTTPError(.uriTooLong, "The address is longer than \(Self.maxTargetBytes / 1024) KB; shorten it.")
        }
        if let ambiguity = ambiguousFraming() { return ambiguity }
        if let transferEncoding = headers["Transfer-Encoding"] {
            guard transferEncoding.lowercased().contains("chunked") else {
                // libmicrohttpd cannot tell where such a body ends and would wait for it until
                // the connection times out (found by fuzzing): refuse it at once.
                return HTTPError(.notImplemented, "The transfer encoding \(transferEncoding) is not supported; send the body with a Content-Length.")
            }
            return HTTPError(.lengthRequired, "Uploads need a Content-Length.")
        }
        guard let length = headers["Content-Length"] else { return nil }
        guard let byteCount = Int(length), byteCount >= 0 else {
            return HTTPError(.badRequest, "The Content-Length is not a number.")
        }
        declaredBodyCount = byteCount
        return nil
    }

    /// Sets the most the body may hold, as the server decided from the head; an error when the
    /// declared length is over it. The limit holds mid-body too.
    func limitBody(to limit: Int) -> HTTPError? {
        bodyLimit = limit
        return declaredBodyCount > limit ? .bodyTooLarge(limit: limit) : nil
    }

    /// A multipart form, whose files stream to disk rather than into memory.
    var isMultipart: Bool { contentType.hasPrefix("multipart/form-data") }

    /// A body follows the head: its refusals are best answered before it is read.
    var expectsBody: Bool { declaredBodyCount > 0 }

    /// The request as far as its head tells (no body yet), kept for `makeRequest`.
    func makeHead(remoteAddress: String, isSecure: Bool) -> Result<Request, HTTPError> {
        if let head { return .success(head) }
        guard let method = HTTPMethod(rawValue: method) else {
            return .failure(HTTPError(.notImplemented, "The method \(self.method) is not supported."))
        }
        do {
            var head = try Request(method: method, target: rawURI, headers: headers, remoteAddress: remoteAddress)
            head.isSecure = isSecure
            self.head = head
            return .success(head)
        } catch {
            return .failure(error)
        }
    }

    /// Decides how to take the body of a head that passed: a multipart body is streamed, files to
    /// `uploadDirectory`, and must carry `requiredField` before its first file part.
    func prepareBody(connection: OpaquePointer, uploadDirectory: String, requiredField: RequiredField?) -> HTTPError? {
        guard expectsBody else { return nil }
        if isMultipart {
            guard let multipart = MultipartReceiver(connection: connection, directory: uploadDirectory,
                                                    requiredField: requiredField) else {
                return HTTPError(.badRequest, "The multipart form has no boundary.")
            }
            receiver = .multipart(multipart)
        } else {
            receiver = .bytes
            bodyBytes.reserveCapacity(declaredBodyCount)
        }
        return nil
    }

    /// A chunk of the body; false drops the connection (the limit is enforced mid-body too).
    func receive(_ data: UnsafePointer<CChar>, count: Int) -> Bool {
        receivedCount += count
        guard receivedCount <= bodyLimit else { return false }
        switch receiver {
        case .none:
            return false
        case .bytes:
            data.withMemoryRebound(to: UInt8.self, capacity: count) {
                bodyBytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
            }
            return true
        case .multipart(let multipart):
            multipart.receive(data, count: count)
            return true
        }
    }

    /// The complete request, or the error page's status and message.
    func makeRequest(remoteAddress: String, isSecure: Bool) -> Result<Request, HTTPError> {
        var request: Request
        switch makeHead(remoteAddress: remoteAddress, isSecure: isSecure) {
        case .success(let head): request = head
        case .failure(let error): return .failure(error)
        }
        if case .bytes = receiver {
            do { try request.receiveBody(bodyBytes) } catch { return .failure(error) }
        }
        switch receiver {
        case .none, .bytes:
            break
        case .multipart(let multipart):
            switch multipart.finish() {
            case .success(let (fields, files)):
                request.form = fields
                request.files = files
            case .failure(let error):
                return .failure(error)
            }
        }
        bodyBytes = []
        return .success(request)
    }

    /// The request is over: delete uploaded files and let go of the event stream.
    func complete() {
        if case .multipart(let multipart) = receiver { multipart.removeFiles() }
        eventStream?.detach()
        eventStream = nil
    }

    /// Header forms that two readers of the same bytes (a proxy and this server) could take
    /// differently, so that one sees a body or a host the other does not: request smuggling.
    private func ambiguousFraming() -> HTTPError? {
        if hasMalformedField {
            return HTTPError(.badRequest, "A header name holds whitespace or a header value holds a NUL byte.")
        }
        for name in ["Content-Length", "Host"] where headers.all(name).count > 1 {
            return HTTPError(.badRequest, "The request has more than one \(name) header.")
        }
        return nil
    }

    private var contentType: String {
        headers["Content-Type"]?.lowercased() ?? ""
    }

    fileprivate func addHeader(name: String, value: String, isMalformed: Bool) {
        headers.add(name, value)
        if isMalformed { hasMalformedField = true }
    }
}

private func collectHeader(_ context: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind,
                           _ name: UnsafePointer<CChar>?, _ nameSize: Int,
                           _ value: UnsafePointer<CChar>?, _ valueSize: Int) -> MHD_Result {
    guard let context, let name else { return MHD_Result.YES }
    let nameText = String(cString: name), valueText = value.map { String(cString: $0) } ?? ""
    // The sizes count every byte: a C string shorter than its size has a NUL inside.
    let isMalformed = nameText.utf8.count != nameSize || valueText.utf8.count != valueSize
        || nameText.utf8.contains { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    Unmanaged<RequestContext>.fromOpaque(context).takeUnretainedValue()
        .addHeader(name: nameText, value: valueText, isMalformed: isMalformed)
    return MHD_Result.YES
}
