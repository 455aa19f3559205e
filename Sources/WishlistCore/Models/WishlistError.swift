/// Errors of the wishlist beyond form validation.
public enum WishlistError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No row of `entity` ("trip", "activity") has this id: it never existed or was deleted.
    case notFound(entity: String, id: Int64)

    public var description: String {
        switch self {
        case .notFound(let entity, let id): "There is no \(entity) with id \(id); it may have been deleted."
        }
    }
}
