import HTTPServer
import Mustache
import WishlistCore

/// New Trip (`/trips/new`, also the dialog behind "+" on the Wishlist tab); saving posts to `/trips`.
struct NewTripPage {
    let app: WishlistApp

    func register(on router: inout Router) {
        router.page("/trips/new") { request in
            let collection = try app.store.read { try TripForm.newTripCollection(asked: request.query["collection"], in: $0) }
            return try render(TripForm(newIn: collection), for: request, status: .ok)
        }
        router.post("/trips") { request in try create(request) }
    }

    func create(_ request: Request) throws -> Response {
        var form = TripForm(form: request.form)
        if form.findPlaces(request.form) { return try render(form, for: request, status: .ok) }
        if let unsaved = try form.save({ _ = try app.store.addTrip($0, photoAt: PhotoRoutes.uploadedPhotoPath(request)) }) {
            return unsaved.answer(try render(form, for: request, status: unsaved.status))
        }
        // The new trip is now first in the carousel.
        return .redirect(to: "/")
    }

    static func formContext(_ form: TripForm, formID: String, cancelURL: String, maxPhotoBytes: Int) -> [String: MustacheValue] {
        form.context(formID: formID, action: "/trips", heading: "New Trip", submitLabel: "Save",
                     cancelURL: cancelURL, photo: PhotoFieldView(maxBytes: maxPhotoBytes))
    }

    private func render(_ form: TripForm, for request: Request, status: HTTPStatus) throws -> Response {
        let context = Self.formContext(form, formID: "new-trip", cancelURL: "/", maxPhotoBytes: app.configuration.maxPhotoBytes)
        return try app.pages.page("trip-new", for: request, tab: .wishlist, status: status, ["form": .object(context)])
    }
}
