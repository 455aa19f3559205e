/// Errors of the wishlist beyond form validation.
public enum WishlistError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No row of `entity` ("trip", "activity") has this id: it never existed or was deleted.
    case notFound(entity: String, id: Int64)
    /// No secret of this kind ("API token", "calendar feed") has this name: it never existed or was revoked.
    case noSuchSecret(kind: String, name: String)
    /// A change made to what `entity` was named before is refused: it has been renamed to `now`
    /// since (a rename kept offline, another tab's meanwhile).
    case renamedMeanwhile(entity: String, now: String)
    /// A change to what `entity` was when its form was drawn is refused: it has changed since.
    case changedMeanwhile(entity: String)

    public var description: String {
        switch self {
        case .notFound(let entity, let id): "There is no \(entity) with id \(id); it may have been deleted."
        case .noSuchSecret(let kind, let name): "There is no \(kind) called “\(name)”; it may have been revoked."
        case .renamedMeanwhile(let entity, let now): "The \(entity) has been renamed to “\(now)” since."
        case .changedMeanwhile(let entity): "The \(entity) has been changed since."
        }
    }
}
