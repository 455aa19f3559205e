/// Dispatches requests by method and path pattern (`/items/:id/edit`) to handlers.
/// Build it before the server starts; afterwards it is only read.
public struct Router: Sendable {
    private struct Route: Sendable {
        let method: HTTPMethod
        let pattern: String
        let segments: [Segment]
        let handler: Handler
    }

    private enum Segment: Sendable {
        case literal(String)
        case parameter(String)
    }

    private var table: [Route] = []

    public init() {}

    /// Every registered method and pattern, in registration order.
    public var routes: [(method: HTTPMethod, pattern: String)] {
        table.map { (method: $0.method, pattern: $0.pattern) }
    }

    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        let segments = Self.split(pattern).map { part -> Segment in
            part.hasPrefix(":") ? .parameter(String(part.dropFirst())) : .literal(String(part))
        }
        table.append(Route(method: method, pattern: pattern, segments: segments, handler: handler))
    }

    public mutating func get(_ pattern: String, _ handler: @escaping Handler) { add(.get, pattern, handler) }
    public mutating func post(_ pattern: String, _ handler: @escaping Handler) { add(.post, pattern, handler) }
    public mutating func put(_ pattern: String, _ handler: @escaping Handler) { add(.put, pattern, handler) }
    public mutating func patch(_ pattern: String, _ handler: @escaping Handler) { add(.patch, pattern, handler) }
    public mutating func delete(_ pattern: String, _ handler: @escaping Handler) { add(.delete, pattern, handler) }

    /// Runs the matching handler: 404 when no pattern matches, 405 (with `Allow`) when only
    /// other methods do. HEAD runs the GET handler; a POST form with `_method=PUT|PATCH|DELETE`
    /// runs that method's handler, so plain HTML forms can reach them.
    public func respond(to request: Request) throws -> Response {
        let method = Self.effectiveMethod(of: request)
        let pathSegments = Self.split(request.path)
        var allowed: Set<HTTPMethod> = []
        for route in table {
            guard let parameters = Self.match(route.segments, pathSegments) else { continue }
            if route.method == method || (method == .head && route.method == .get) {
                guard !parameters.isEmpty else { return try route.handler(request) }
                var routed = request
                routed.parameters = parameters
                return try route.handler(routed)
            }
            allowed.insert(route.method)
        }
        guard !allowed.isEmpty else {
            throw HTTPError(.notFound, "There is no page at this address.")
        }
        if allowed.contains(.get) { allowed.insert(.head) }
        let allow = HTTPMethod.allCases.filter(allowed.contains).map(\.rawValue).joined(separator: ", ")
        throw HTTPError(.methodNotAllowed, "This address does not accept \(method.rawValue).",
                        headers: ["Allow": allow])
    }

    private static func effectiveMethod(of request: Request) -> HTTPMethod {
        guard request.method == .post, let override = request.form["_method"],
              let method = HTTPMethod(rawValue: override.uppercased()),
              [.put, .patch, .delete].contains(method) else { return request.method }
        return method
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    private static func match(_ segments: [Segment], _ path: [Substring]) -> [String: String]? {
        guard segments.count == path.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, path) {
            switch segment {
            case .literal(let literal):
                guard literal == part else { return nil }
            case .parameter(let name):
                parameters[name] = String(part)
            }
        }
        return parameters
    }
}
