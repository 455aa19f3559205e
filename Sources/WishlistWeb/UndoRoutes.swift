import HTTPServer
import Mustache
import WishlistCore

/// Undoing a delete. A delete leads to its page with `?deleted=<id>`, which shows a notice saying
/// what went with an Undo button (a form, so it works without the script) while the store keeps
/// the deletion; pressing it puts the rows back and returns to the trip. Other tabs see the
/// restore as any insert, over their live topics.
struct UndoRoutes {
    let app: WishlistApp
    static let parameter = "deleted"

    func register(on router: inout Router) {
        router.post("/deletions/:id/undo") { request in try undo(request) }
    }

    func undo(_ request: Request) throws -> Response {
        let id = try RecordID(request.parameters["id"], entity: "deletion").value
        let deletion: Deletion
        do {
            deletion = try app.store.undoDeletion(id: id)
        } catch WishlistError.notFound(entity: "deletion", _) {
            throw HTTPError(.notFound, "That delete can no longer be undone: the last \(WishlistStore.keptDeletions) deletes are kept, "
                            + "each for \(Int(WishlistStore.keptFor / 60)) minutes.")
        }
        return .redirect(to: "/trips/\(deletion.tripID)" + (deletion.kind == .activity ? "?edit=1" : ""))
    }

    /// Where a delete leads: `path`, with the notice offering to undo it.
    static func path(_ path: String, offeringUndoOf deletion: Deletion) -> String {
        path + (path.contains("?") ? "&" : "?") + "\(parameter)=\(deletion.id)"
    }

    /// The deletion the page `request` asks to offer undoing, read from `snapshot`; nil when it
    /// names none that can still be undone.
    static func deletion(for request: Request, store: WishlistStore, in snapshot: WishlistSnapshot) throws -> Deletion? {
        guard let id = request.query[parameter].flatMap(Int64.init) else { return nil }
        return try snapshot.fetch(store.undoableDeletion(id: id))
    }

    /// The notice offering to undo `deletion` (`partials/undo-notice`); null without one.
    static func notice(_ deletion: Deletion?) -> MustacheValue {
        guard let deletion else { return .null }
        let text = switch (deletion.kind, deletion.name.isEmpty) {
        case (.photo, true): "Deleted a photo."
        case (.photo, false): "Deleted the photo “\(deletion.name)”."
        default: "Deleted “\(deletion.name)”."
        }
        return ["id": .int(Int(deletion.id)), "text": .string(text)]
    }
}
