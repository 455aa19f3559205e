import Foundation
@testable import HTTPServer

/// Starts a server on an ephemeral port for the duration of `body`.
func withServer<T>(_ configuration: Server.Configuration = Server.Configuration(threadCount: 2),
                   handler: @escaping Handler, _ body: (Server) throws -> T) throws -> T {
    let server = Server(configuration: configuration, responder: handler)
    try server.start()
    defer { server.stop() }
    return try body(server)
}

/// A fresh temporary directory, removed by the caller.
func makeTemporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "httpserver-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
