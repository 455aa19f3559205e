import Foundation
import HTTPServer
import WishlistCore

/// The JSON API's writes (docs/SYNC.md): trips and activities created, changed and deleted, check
/// offs, photos, through the same `WishlistStore` writes and validation as the pages. A request with
/// an API token writes as that token's author (`token:NAME`), any other as "app"; browsers' cookie
/// requests still need their CSRF token. Errors are the pages' statuses with JSON bodies.
struct APIWriteRoutes {
    let app: WishlistApp

    func register(on router: inout Router) {
        router.get("/api/token") { request in try .json(TokenJSON(try Self.token(of: request))) }
        router.post("/api/trips") { request in
            let id = try app.store.addTrip(try APIBody(request).decode(TripBody.self).draft, author: Self.author(of: request))
            return try created(TripJSON(try trip(id)), at: "/api/trips/\(id)")
        }
        router.put("/api/trips/:id") { request in
            let id = try RecordID(request.parameters["id"], entity: "trip").value
            try app.store.updateTrip(id: id, draft: try APIBody(request).decode(TripBody.self).draft, author: Self.author(of: request))
            return try .json(TripJSON(try trip(id)))
        }
        router.delete("/api/trips/:id") { request in
            try app.store.deleteTrip(id: try RecordID(request.parameters["id"], entity: "trip").value, author: Self.author(of: request))
            return Response(status: .noContent)
        }
        router.put("/api/trips/:id/photo") { request in try attachPhoto(request) }
        router.post("/api/trips/:id/activities") { request in
            let tripID = try RecordID(request.parameters["id"], entity: "trip").value
            let body = try APIBody(request).decode(ActivityBody.self)
            let author = Self.author(of: request)
            guard let name = body.name else { throw HTTPError(.badRequest, "name is missing.") }
            let id = try app.store.addActivity(tripID: tripID, name: name, author: author)
            if body.isComplete == true { try app.store.setActivityComplete(id: id, true, author: author) }
            return try created(ActivityJSON(try activity(id)), at: "/api/activities/\(id)")
        }
        router.get("/api/activities/:id") { request in
            try .json(ActivityJSON(try activity(try RecordID(request.parameters["id"], entity: "activity").value)))
        }
        router.patch("/api/activities/:id") { request in
            let id = try RecordID(request.parameters["id"], entity: "activity").value
            let body = try APIBody(request).decode(ActivityBody.self)
            let author = Self.author(of: request)
            if let name = body.name { try app.store.renameActivity(id: id, name: name, author: author) }
            if let isComplete = body.isComplete { try app.store.setActivityComplete(id: id, isComplete, author: author) }
            return try .json(ActivityJSON(try activity(id)))
        }
        router.delete("/api/activities/:id") { request in
            try app.store.deleteActivity(id: try RecordID(request.parameters["id"], entity: "activity").value,
                                         author: Self.author(of: request))
            return Response(status: .noContent)
        }
    }

    /// The history author of a request's writes.
    static func author(of request: Request) -> String {
        request.bearerTokenName.map(WishlistStore.author(ofToken:)) ?? WishlistStore.appAuthor
    }

    /// The name of the request's API token, for `GET /api/token`.
    static func token(of request: Request) throws -> String {
        guard let name = request.bearerTokenName else {
            throw HTTPError(.unauthorized, "This tells which API token a request carries; this one carries none.",
                            headers: ["WWW-Authenticate": "Bearer"])
        }
        return name
    }

    /// The trip's new cover (the old one stays in its gallery), as the raw body (any image type; the bytes decide, as for uploads) or as the
    /// `photo` part of a multipart form (then it is decoded on the upload queue).
    private func attachPhoto(_ request: Request) throws -> Response {
        let id = try RecordID(request.parameters["id"], entity: "trip").value
        try Self.withUploadedPhoto(request, in: app.store) { path in
            try app.store.addCover(tripID: id, at: path, author: Self.author(of: request))
        }
        return try .json(TripJSON(try trip(id)))
    }

    /// Runs `body` with the path of the photo `request` sent: the `photo` part of a multipart form
    /// (decoded on the upload queue), or the raw body, written to a temporary file for the call.
    static func withUploadedPhoto<Value>(_ request: Request, in store: WishlistStore, _ body: (String) throws -> Value) throws -> Value {
        if let path = PhotoRoutes.uploadedPhotoPath(request) { return try body(path) }
        guard !request.body.isEmpty else {
            throw HTTPError(.badRequest, "Send the photo as the request body, or as the “photo” part of a multipart form.")
        }
        let file = TemporaryFile(try DataFolder.uploads(besideDatabaseAt: store.database.path).appendingPathComponent(UUID().uuidString))
        try Data(request.body).write(to: file.url)
        return try withExtendedLifetime(file) { try body(file.url.path) }
    }

    private func trip(_ id: Trip.ID) throws -> Trip {
        guard let trip = try app.store.trip(id: id) else { throw WishlistError.notFound(entity: "trip", id: id) }
        return trip
    }

    private func activity(_ id: Activity.ID) throws -> Activity {
        guard let activity = try app.store.activity(id: id) else { throw WishlistError.notFound(entity: "activity", id: id) }
        return activity
    }

    private func created(_ value: some Encodable, at location: String) throws -> Response {
        var response = try Response.json(value, status: .created)
        response.headers["Location"] = location
        return response
    }
}

/// A JSON request body, decoded into the shape a route expects: anything else is a 400 that says
/// what was wrong where (`trips[0].name`-style paths, as the archive's errors).
struct APIBody {
    let request: Request

    init(_ request: Request) {
        self.request = request
    }

    /// Far beyond any trip or activity (each text is at most 800 bytes): decoding JSON holds
    /// ~25 bytes per byte, so a body's size is what bounds its cost.
    static let maxBytes = 64 * 1024

    func decode<Body: Decodable>(_ type: Body.Type) throws -> Body {
        guard request.headers["Content-Type"]?.lowercased().hasPrefix("application/json") == true else {
            throw HTTPError(.badRequest, "Send the body as JSON, with Content-Type: application/json.")
        }
        guard request.body.count <= Self.maxBytes else {
            throw HTTPError(.payloadTooLarge, "A JSON body may be at most \(Self.maxBytes / 1024) KB.")
        }
        do {
            return try JSONDecoder().decode(Body.self, from: Data(request.body))
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw HTTPError(.badRequest, "\(Self.path(context)): \(context.debugDescription)")
        } catch DecodingError.keyNotFound(let key, let context) {
            throw HTTPError(.badRequest, "\(Self.path(context, key)) is missing.")
        } catch {
            throw HTTPError(.badRequest, "The body is not valid JSON.")
        }
    }

    private static func path(_ context: DecodingError.Context, _ key: (any CodingKey)? = nil) -> String {
        let keys = context.codingPath + (key.map { [$0] } ?? [])
        return keys.isEmpty ? "The body" : keys.map(\.stringValue).joined(separator: ".")
    }
}

/// `{"name": …, "subtitle": …, "collection": …}`: a trip as the new-trip form takes it, a whole
/// trip each time (PUT replaces its text).
/// A whole trip, as a write replaces it: a field left out is cleared (`destination`, `subtitle`,
/// the dates), as the edit form does.
struct TripBody: Decodable {
    let name: String
    let subtitle: String?
    let collection: String
    let destination: DestinationBody?
    /// `YYYY-MM-DD`.
    let startDate: String?
    let endDate: String?

    /// `{"name": …, "place": …}`: `place` a token from a trip's JSON, kept while `name` is its label.
    struct DestinationBody: Decodable {
        let name: String
        let place: String?
    }

    var draft: TripDraft {
        TripDraft(name: name, subtitle: subtitle, collection: TripCollection(rawValue: collection),
                  destination: destination.map { PlaceToken.destination(named: $0.name, token: $0.place) },
                  startDate: startDate, endDate: endDate)
    }
}

/// `{"name": …, "isComplete": …}`: a name to add one (unchecked unless `isComplete`), either to change one.
struct ActivityBody: Decodable {
    let name: String?
    let isComplete: Bool?
}

struct TokenJSON: Encodable {
    let name: String
    /// How this token's writes are named in `/api/history` (pass it as `excludeAuthors`).
    let author: String

    init(_ name: String) {
        (self.name, author) = (name, WishlistStore.author(ofToken: name))
    }
}
