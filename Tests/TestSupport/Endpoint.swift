/// Where a test's requests go: each one on a fresh `SocketClient` connection, so no state
/// carries over between them and every header is the test's.
public struct Endpoint: RequestSender, Sendable {
    public let port: Int
    public var host: String

    public init(port: Int, host: String = "127.0.0.1") {
        self.port = port
        self.host = host
    }

    public func send(_ method: String, _ target: String, headers: [String: String], body: [UInt8]) throws -> Reply {
        try SocketClient.send(method, target, port: port, host: host, headers: headers, body: body)
    }

    /// Sends raw bytes on a fresh connection and reads the reply (only its head for a stream).
    public func exchange(_ bytes: [UInt8], expectBody: Bool = true) throws -> Reply {
        try SocketClient(port: port, host: host).exchange(bytes, expectBody: expectBody)
    }
}
