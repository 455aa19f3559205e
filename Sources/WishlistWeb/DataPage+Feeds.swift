import Foundation
import HTTPServer
import Mustache
import WishlistCore

// The Data page's calendar feeds section: create one (its address shown on the answer, once),
// give one a new address, revoke one. The trip page's "Subscribe" link comes here with its trip.
extension DataPage {
    /// Trips offered in the form's list, soonest first; a trip page's link adds its own.
    static let feedTripChoices = 200

    func registerFeedRoutes(on router: inout Router) {
        router.post("/data/feeds") { request in try createFeed(request) }
        router.post("/data/feeds/:name/rotate") { request in
            let name = request.parameters["name"] ?? ""
            return try secretAnswer(request, section: .feeds, name: name) {
                try CalendarFeedSecrets.rotate(named: name, in: app.store)
            }
        }
        router.post("/data/feeds/:name/revoke") { request in
            try app.store.revokeCalendarFeed(name: request.parameters["name"] ?? "")
            return .redirect(to: "/data#feeds")
        }
    }

    private func createFeed(_ request: Request) throws -> Response {
        let name = request.form["name"] ?? ""
        let trip = request.form["trip"].flatMap { $0.isEmpty ? nil : $0 }
        return try secretAnswer(request, section: .feeds, name: name) {
            let tripID = try trip.map { try RecordID($0, entity: "trip").value }
            return try CalendarFeedSecrets.create(named: name, tripID: tripID, in: app.store)
        }
    }

    func feedsContext(_ notice: SecretNotice?, _ request: Request) throws -> [String: MustacheValue] {
        let feeds = try app.store.calendarFeeds()
        // The trip page's link names a trip; a refused form keeps the one it sent.
        let chosenTrip = Int64(request.form["trip"] ?? request.query["trip"] ?? "")
        let (trips, names) = try app.store.read { snapshot in
            let soonest = try snapshot.fetch(.tripsByStartDate(pageNumber: 1, pageSize: Self.feedTripChoices)).trips
                .filter { $0.startDate != nil }
            let chosen = try chosenTrip.flatMap { id in soonest.contains { $0.id == id } ? nil : try snapshot.fetch(.trip(id: id)) }
            let named = try Set(feeds.compactMap(\.tripID)).compactMap { try snapshot.fetch(.trip(id: $0)) }
            return ((chosen.map { [$0] } ?? []) + soonest, Dictionary(named.map { ($0.id, $0.name) }) { first, _ in first })
        }
        var context: [String: MustacheValue] = [
            "feeds": .array(feeds.map { feed in
                var row: [String: MustacheValue] = ["name": .string(feed.name), "created": .string(feed.creationDate.longDateText)]
                if let id = feed.tripID {
                    row["trip"] = ["href": .string("/trips/\(id)"), "name": .string(names[id] ?? "Trip \(id) (deleted)")]
                }
                return .object(row)
            }),
            "hasFeeds": .bool(!feeds.isEmpty),
            "feedTrips": .array(trips.map { trip in
                ["id": .int(Int(trip.id)), "name": .string(trip.name), "selected": .bool(trip.id == chosenTrip)]
            }),
        ]
        switch notice?.outcome {
        case .created(let name, let path):
            let url = request.origin + path
            // The same address as webcal://, which opens a calendar app.
            // Under a name another device reaches (`--allowed-host`) the address is that name's.
            context["newFeed"] = ["name": .string(name), "url": .string(url), "webcal": .string("webcal" + url.drop { $0 != ":" }),
                                  "thisComputerOnly": .bool(request.cameToLocalName)]
        case .problem(let message, let typedName):
            context["feedProblem"] = .string(message)
            context["feedTyped"] = .string(typedName)
        case nil: break
        }
        return context
    }
}
