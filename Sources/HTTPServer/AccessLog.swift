/// Logs one line per request to stderr: method, path, status, body bytes, duration.
public struct AccessLog: Middleware {
    public init() {}

    public func respond(to request: Request, next: Handler) throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try next(request)
            log(request, status: response.status, bytes: response.bodySize, since: start)
            return response
        } catch {
            log(request, status: HTTPError(wrapping: error).status, bytes: 0, since: start)
            throw error
        }
    }

    private func log(_ request: Request, status: HTTPStatus, bytes: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        writeStandardErrorLine("\(request.method.rawValue) \(request.path) \(status.code) \(bytes) \((milliseconds * 100).rounded() / 100)ms")
    }
}
