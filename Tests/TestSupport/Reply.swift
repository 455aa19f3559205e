import Foundation

/// A whole HTTP reply as a test reads it, whether it came over a socket or in process.
public struct Reply: Sendable {
    public let status: Int
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The first header called `name`, in any case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The value the reply sets for cookie `name` ("" when it clears it).
    public func cookie(_ name: String) -> String? {
        setCookies.first { $0.name == name }?.value
    }

    /// Each `Set-Cookie`'s name and value, without its attributes.
    public var setCookies: [(name: String, value: String)] {
        headers.filter { $0.name.lowercased() == "set-cookie" }.map { header in
            let pair = header.value.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(pair[0]), pair.count > 1 ? String(pair[1]) : "")
        }
    }

    public func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw TestFailure("not a JSON object: \(text)")
        }
        return object
    }
}

public struct TestFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
