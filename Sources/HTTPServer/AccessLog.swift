import Glibc

/// Logs one line per request to stderr: method, path, status, body bytes, duration. An event
/// stream gets a second line when it ends, `END` in place of its method, with how long it was open.
public struct AccessLog: Middleware {
    public init() {}

    public func respond(to request: Request, next: Handler) throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try next(request)
            log(request.method.rawValue, request.path, status: response.status, bytes: response.bodySize, since: start)
            if case .eventStream(let stream) = response.body {
                let path = request.path, status = response.status
                stream.onClose { log("END", path, status: status, bytes: 0, since: start) }
            }
            return response
        } catch {
            log(request.method.rawValue, request.path, status: HTTPError(wrapping: error).status, bytes: 0, since: start)
            throw error
        }
    }

    private func log(_ method: String, _ path: String, status: HTTPStatus, bytes: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        let line = Self.line(method: method, path: path, status: status.code, bytes: bytes, nanoseconds: nanoseconds)
        line.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// `GET /path 200 1234 0.15ms` and a newline, built in one buffer: string interpolation and
    /// formatting a `Double` cost more than the rest of a cached page's answer.
    static func line(method: String, path: String, status: Int, bytes: Int, nanoseconds: Int64) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(path.utf8.count + 40)
        line.appendUTF8(method)
        line.append(UInt8(ascii: " "))
        line.appendUTF8(path)
        line.append(UInt8(ascii: " "))
        line.appendDecimal(status)
        line.append(UInt8(ascii: " "))
        line.appendDecimal(bytes)
        line.append(UInt8(ascii: " "))
        // Milliseconds to two decimals without trailing zeros (as a Double prints): 1.0, 0.5, 0.15.
        let hundredths = Int((nanoseconds + 5_000) / 10_000)
        line.appendDecimal(hundredths / 100)
        line.append(UInt8(ascii: "."))
        let fraction = hundredths % 100
        if fraction % 10 == 0 {
            line.appendDecimal(fraction / 10)
        } else {
            line.append(UInt8(ascii: "0") + UInt8(fraction / 10))
            line.append(UInt8(ascii: "0") + UInt8(fraction % 10))
        }
        line.appendUTF8("ms\n")
        return line
    }
}
