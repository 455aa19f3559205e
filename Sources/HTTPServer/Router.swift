/// Dispatches requests by method and path pattern (`/items/:id/edit`) to handlers.
/// Build it before the server starts; afterwards it is only read. Where patterns of one method
/// overlap, the one with a literal segment where the other has a parameter wins (leftmost
/// difference first), whatever the registration order: `/items/new` before `/items/:id`.
/// Two patterns of one method that match exactly the same paths are a mistake, stopped at `add`.
public struct Router: Sendable {
    /// A class, so walking the table retains one reference per route rather than each field.
    private final class Route: Sendable {
        let method: HTTPMethod
        let pattern: String
        let segments: [Segment]
        let handler: Handler
        /// A page a person may open from a link or bookmark on another site (`page(_:_:)`).
        let isPage: Bool

        init(method: HTTPMethod, pattern: String, segments: [Segment], handler: @escaping Handler, isPage: Bool) {
            self.method = method
            self.pattern = pattern
            self.segments = segments
            self.handler = handler
            self.isPage = isPage
        }
    }

    private enum Segment: Sendable {
        case literal(String)
        case parameter(String)

        var isParameter: Bool {
            if case .parameter = self { true } else { false }
        }

        /// Whether both match the same path segments: equal literals, or parameters of any name.
        func hasShape(of other: Segment) -> Bool {
            switch (self, other) {
            case (.literal(let one), .literal(let two)): one == two
            case (.parameter, .parameter): true
            default: false
            }
        }
    }

    private var table: [Route] = []
    /// The same routes by their number of segments, most specific first (see `isMoreSpecific`):
    /// a path can only match a pattern of its own length, so a request looks at those alone, and
    /// the first match of its method is the one it gets.
    private var tableBySegmentCount: [[Route]] = []

    public init() {}

    /// Every registered method and pattern, in registration order.
    public var routes: [(method: HTTPMethod, pattern: String)] {
        table.map { (method: $0.method, pattern: $0.pattern) }
    }

    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        add(method, pattern, handler, isPage: false)
    }

    private mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler, isPage: Bool) {
        let segments = pattern.pathSegments.map { part -> Segment in
            part.hasPrefix(":") ? .parameter(String(part.dropFirst())) : .literal(String(part))
        }
        let route = Route(method: method, pattern: pattern, segments: segments, handler: handler, isPage: isPage)
        while tableBySegmentCount.count <= segments.count { tableBySegmentCount.append([]) }
        var sameLength = tableBySegmentCount[segments.count]
        if let clash = sameLength.first(where: { $0.method == method && zip($0.segments, segments).allSatisfy { $0.hasShape(of: $1) } }) {
            preconditionFailure("Route \(method.rawValue) \(pattern) clashes with \(method.rawValue) \(clash.pattern): both match the same paths.")
        }
        sameLength.insert(route, at: sameLength.firstIndex { Self.isMoreSpecific(segments, than: $0.segments) } ?? sameLength.endIndex)
        tableBySegmentCount[segments.count] = sameLength
        table.append(route)
    }

    /// Whether a pattern wins over another of its length where both match: at the first position
    /// where one has a literal and the other a parameter, the literal.
    private static func isMoreSpecific(_ segments: [Segment], than other: [Segment]) -> Bool {
        for (mine, theirs) in zip(segments, other) where mine.isParameter != theirs.isParameter {
            return !mine.isParameter
        }
        return false
    }

    /// A GET route this site's own pages and scripts use: not for other sites (see `isPage`).
    public mutating func get(_ pattern: String, _ handler: @escaping Handler) { add(.get, pattern, handler) }
    /// A GET route of a page a person may open from anywhere: a link or bookmark elsewhere.
    public mutating func page(_ pattern: String, _ handler: @escaping Handler) { add(.get, pattern, handler, isPage: true) }
    public mutating func post(_ pattern: String, _ handler: @escaping Handler) { add(.post, pattern, handler) }
    public mutating func put(_ pattern: String, _ handler: @escaping Handler) { add(.put, pattern, handler) }
    public mutating func patch(_ pattern: String, _ handler: @escaping Handler) { add(.patch, pattern, handler) }
    public mutating func delete(_ pattern: String, _ handler: @escaping Handler) { add(.delete, pattern, handler) }

    /// Runs the matching handler: 404 when no pattern matches, 405 (with `Allow`) when only
    /// other methods do. HEAD runs the GET handler; a POST form with `_method=PUT|PATCH|DELETE`
    /// runs that method's handler, so plain HTML forms can reach them.
    public func respond(to request: Request) throws -> Response {
        let method = Self.effectiveMethod(of: request)
        let pathSegments = request.path.pathSegments
        var allowed: Set<HTTPMethod> = []
        let candidates = pathSegments.count < tableBySegmentCount.count ? tableBySegmentCount[pathSegments.count] : []
        for route in candidates where Self.matches(route.segments, pathSegments) {
            if route.method == method || (method == .head && route.method == .get) {
                let parameters = Self.parameters(route.segments, pathSegments)
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

    /// Whether `path` is a page's (`page(_:_:)`): everything else answers only this site's own
    /// pages (`CrossSiteReadProtection`), so a route added later is protected unless it says otherwise.
    public func isPage(_ path: String) -> Bool {
        let pathSegments = path.pathSegments
        guard pathSegments.count < tableBySegmentCount.count else { return false }
        return tableBySegmentCount[pathSegments.count]
            .first { $0.method == .get && Self.matches($0.segments, pathSegments) }?.isPage ?? false
    }

    private static func effectiveMethod(of request: Request) -> HTTPMethod {
        guard request.method == .post, let override = request.form["_method"],
              let method = HTTPMethod(rawValue: override.uppercased()),
              [.put, .patch, .delete].contains(method) else { return request.method }
        return method
    }

    /// Whether every literal segment equals the path's (the counts are equal by construction).
    private static func matches(_ segments: [Segment], _ path: [Substring]) -> Bool {
        for (segment, part) in zip(segments, path) {
            if case .literal(let literal) = segment, literal != part { return false }
        }
        return true
    }

    private static func parameters(_ segments: [Segment], _ path: [Substring]) -> [String: String] {
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, path) {
            if case .parameter(let name) = segment { parameters[name] = String(part) }
        }
        return parameters
    }
}
