/// The request methods the server routes. Anything else is answered with 501.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    case get = "GET", head = "HEAD", post = "POST", put = "PUT", patch = "PATCH", delete = "DELETE", options = "OPTIONS"

    /// Methods that may change state, and therefore need CSRF protection.
    public var isUnsafe: Bool {
        switch self {
        case .post, .put, .patch, .delete: true
        case .get, .head, .options: false
        }
    }
}
