import Foundation
import HTTPServer
import Mustache
import WishlistCore

/// One photo of a trip's gallery (`/photos/:id`): the picture at the size that fits the screen,
/// its caption and date, the previous and next photo, and what can be done to it (caption, make
/// it the cover, move it, delete it with an Undo). The viewer without a script, and where the
/// script's full-screen viewer (`gallery-viewer.js`) links for each photo.
struct PhotoPage {
    let app: WishlistApp

    static func path(_ id: GalleryPhoto.ID) -> String { "/photos/\(id)" }

    func register(on router: inout Router) {
        router.page("/photos/:id") { request in
            let id = try RecordID(request.parameters["id"], entity: "photo").value
            return try app.pages.cached(request, read: { try Shown(photoID: id, $0) }, draw: { try draw(request, $0) })
        }
        router.post("/photos/:id/caption") { request in
            try change(request) { id in try app.store.setCaption(photoID: id, request.form["caption"] ?? "") }
        }
        router.post("/photos/:id/move") { request in
            try change(request) { id in
                guard let to = request.form["to"].flatMap(Int.init) else { throw HTTPError(.badRequest, "Say where the photo goes.") }
                try app.store.movePhoto(id: id, toIndex: to)
            }
        }
        router.post("/photos/:id/delete") { request in
            let id = try RecordID(request.parameters["id"], entity: "photo").value
            let deletion = try app.store.deletePhoto(id: id)
            return .redirect(to: UndoRoutes.path("/trips/\(deletion.tripID)", offeringUndoOf: deletion) + "#\(TripGalleryView.elementID)")
        }
    }

    /// The photo, its trip's name and the order of the trip's photos, read in one snapshot.
    struct Shown: Sendable {
        let photo: GalleryPhoto?
        let tripName: String
        let gallery: [GalleryPhoto]

        init(photoID: GalleryPhoto.ID, _ snapshot: WishlistSnapshot) throws {
            photo = try snapshot.fetch(.galleryPhoto(id: photoID))
            let trip = try photo.flatMap { try snapshot.fetch(.trip(id: $0.tripID)) }
            tripName = trip?.name ?? ""
            gallery = try photo.map { try snapshot.fetch(.gallery(tripID: $0.tripID)) } ?? []
        }
    }

    private func draw(_ request: Request, _ shown: Shown, problem: String? = nil, typed: String? = nil,
                      status: HTTPStatus = .ok) throws -> SharedResponse {
        guard let photo = shown.photo, let index = shown.gallery.firstIndex(where: { $0.id == photo.id }) else {
            throw HTTPError(.notFound, "There is no photo \(request.parameters["id"] ?? ""). It may have been deleted.")
        }
        let count = shown.gallery.count
        let address = PhotoRoutes.Address.photo(photo.id)
        let neighbour = { (offset: Int) -> MustacheValue in
            shown.gallery.indices.contains(index + offset) ? .string(Self.path(shown.gallery[index + offset].id)) : .null
        }
        var context: [String: MustacheValue] = [
            "id": .int(Int(photo.id)),
            "tripID": .int(Int(photo.tripID)),
            "tripName": .string(shown.tripName),
            "position": .string("Photo \(index + 1) of \(count)"),
            "isCover": .bool(index == 0),
            "caption": .string(typed ?? photo.caption),
            // The caption names the page; an uncaptioned photo is named by its place in the trip.
            "title": .string(photo.caption.isEmpty ? "Photo \(index + 1) of \(count)" : photo.caption),
            "alt": .string(Self.description(of: photo, index: index, count: count)),
            "photoURL": .string(PhotoRoutes.renditionURL(address, size: .large, version: photo.summary.version)),
            "sourceSet": .string(PhotoRoutes.renditionSourceSet(address, photo: photo.summary)),
            "thumbnailURL": .string(PhotoRoutes.thumbnailURL(address, version: photo.summary.version)),
            "width": .int(photo.summary.width),
            "height": .int(photo.summary.height),
            "originalURL": .string(PhotoRoutes.originalURL(address, version: photo.summary.version)),
            "previousURL": neighbour(-1),
            "nextURL": neighbour(1),
            // Strings: a position of 0 must still show its button.
            "earlier": index > 0 ? .string(String(index - 1)) : .null,
            "later": index < count - 1 ? .string(String(index + 1)) : .null,
        ]
        if let taken = photo.dateTaken.flatMap(Self.takenText) { context["taken"] = .string(taken) }
        if let problem { context["captionError"] = .string(problem) }
        return try app.pages.render("photo", for: request, tab: .wishlist, liveTopics: [.tripGallery(tripID: photo.tripID)],
                                    status: status, context)
    }

    /// Runs `change` on the photo and goes back to its page; a caption refused shows there again.
    private func change(_ request: Request, _ change: (GalleryPhoto.ID) throws -> Void) throws -> Response {
        let id = try RecordID(request.parameters["id"], entity: "photo").value
        do {
            try change(id)
        } catch let problem as ValidationError {
            return try app.pages.uncached(read: { try Shown(photoID: id, $0) }) { shown in
                try draw(request, shown, problem: problem.message, typed: request.form["caption"], status: .unprocessableContent)
            }.response(for: request)
        }
        return .redirect(to: Self.path(id))
    }

    /// What the picture shows for a screen reader: its caption, else its place in the trip.
    static func description(of photo: GalleryPhoto, index: Int, count: Int) -> String {
        photo.caption.isEmpty ? "Photo \(index + 1) of \(count)" : photo.caption
    }

    /// "Taken 14 Jul 2024, 09:30" from "2024-07-14T09:30:00".
    static func takenText(_ date: String) -> String? {
        let parts = date.split(separator: "T")
        guard parts.count == 2, let day = CalendarDate(String(parts[0])) else { return nil }
        return "Taken \(day.dayText), \(parts[1].prefix(5))"
    }
}
