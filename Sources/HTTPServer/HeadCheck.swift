/// A check the request head alone decides (method, target, headers, address). The server runs its
/// `Configuration.headChecks` as soon as a head with a body has arrived and answers a refusal at
/// once, so a refused body is never received, parsed or stored; `Server.respond(to:)` runs them
/// too, for requests handed in whole. Placed in a chain, a head check runs on the whole request.
public protocol HeadCheck: Middleware {
    /// Throws the refusal when the head alone decides against the request.
    func check(head: Request) throws(HTTPError)
    /// A field that must open a multipart body of a head that passed, before any file part of it is
    /// stored; nil when the head needs none.
    func requiredMultipartField(for head: Request) -> RequiredField?
}

extension HeadCheck {
    public func requiredMultipartField(for head: Request) -> RequiredField? { nil }

    public func respond(to request: Request, next: Handler) throws -> Response {
        try check(head: request)
        return try next(request)
    }
}

/// A form field a multipart body must carry, with this value, before its first file part: other
/// fields may come first, up to `MultipartReceiver.maxBytesBeforeRequiredField`.
public struct RequiredField: Sendable {
    public var name: String
    public var value: String
    /// The answer when the field is missing, comes after a file part, or holds another value.
    public var refusal: HTTPError

    public init(name: String, value: String, refusal: HTTPError) {
        self.name = name
        self.value = value
        self.refusal = refusal
    }
}

extension [any HeadCheck] {
    /// Runs every check, in order: the first refusal.
    func check(head: Request) throws(HTTPError) {
        for check in self { try check.check(head: head) }
    }

    func requiredMultipartField(for head: Request) -> RequiredField? {
        lazy.compactMap { $0.requiredMultipartField(for: head) }.first
    }
}

/// The head checks in front of a handler, for requests handed to the server whole.
struct HeadChecks: Middleware {
    let checks: [any HeadCheck]

    func respond(to request: Request, next: Handler) throws -> Response {
        try checks.check(head: request)
        return try next(request)
    }
}
