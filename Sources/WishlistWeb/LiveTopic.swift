import Foundation
import WishlistCore

/// A fragment that open pages follow: a page lists its topics (`data-live-topics`), its script
/// opens `/events?topics=…` with their ids, and each commit that changes a topic's query result
/// sends the fragment again.
enum LiveTopic: Hashable, Sendable {
    case carousel
    case collectionRow(TripCollection)
    case tripHeader(tripID: Int64)
    /// The trip page's gallery.
    case tripGallery(tripID: Int64)
    case activityList(tripID: Int64, editing: Bool)
    case achievedGoals
    case upcomingGoals
    /// One page of "Show all" for a collection.
    case collectionListing(TripCollection, pageNumber: Int)
    /// The Search tab's results for a text, as many pages as shown.
    case searchResults(text: String, shown: ShownPages)
    /// One page of the Trips tab by start date.
    case tripsByDate(pageNumber: Int)
    /// One page of the Trips tab's destinations, after the one named (nil: the first page).
    case tripsByDestination(after: String?)
    /// The Map tab's map and its list of pins.
    case map

    /// What the topic shows, as its page showed it.
    var fragment: any Fragment {
        switch self {
        case .carousel: CarouselFragment()
        case .collectionRow(let collection): CollectionRowFragment(collection: collection)
        case .tripHeader(let tripID): TripHeaderFragment(tripID: tripID)
        case .tripGallery(let tripID): TripGalleryFragment(tripID: tripID)
        case .activityList(let tripID, let editing): ActivityListFragment(tripID: tripID, editing: editing)
        case .achievedGoals: AchievedGoalsFragment()
        case .upcomingGoals: UpcomingGoalsFragment()
        case .collectionListing(let collection, let pageNumber): CollectionListingFragment(collection: collection, pageNumber: pageNumber)
        case .searchResults(let text, let shown): SearchResultsFragment(text: text, shown: shown)
        case .tripsByDate(let pageNumber): TripsByDateFragment(pageNumber: pageNumber)
        case .tripsByDestination(let after): TripsByDestinationFragment(after: after)
        case .map: MapFragment()
        }
    }

    /// The topic's name in a page and in `/events?topics=`: a kind, and the record it follows.
    var id: String {
        switch self {
        case .carousel, .achievedGoals, .upcomingGoals, .map, .tripsByDestination(nil): kind.rawValue
        case .collectionRow(let collection): "\(kind.rawValue).\(collection.rawValue)"
        case .tripHeader(let tripID), .tripGallery(let tripID), .activityList(let tripID, _): "\(kind.rawValue).\(tripID)"
        case .collectionListing(let collection, let pageNumber): "\(kind.rawValue).\(collection.rawValue).\(pageNumber)"
        // The text percent-encoded, spaces as "+": no space or dot of its own splits the id.
        case .searchResults(let text, let shown): "\(kind.rawValue).\(shown.trips).\(shown.activities).\(ShownPages.encoded(text))"
        case .tripsByDate(let pageNumber): "\(kind.rawValue).\(pageNumber)"
        case .tripsByDestination(let after?): "\(kind.rawValue).\(ShownPages.encoded(after))"
        }
    }

    /// The topic named `id`, or nil for a name no page uses.
    init?(id: String) {
        let parts = id.split(separator: ".", maxSplits: 1).map(String.init)
        guard let kind = Kind(rawValue: parts[0]) else { return nil }
        let argument = parts.count == 2 ? parts[1] : nil
        let tripID = argument.flatMap { Int64($0) }.flatMap { $0 > 0 ? $0 : nil }
        switch (kind, argument) {
        case (.carousel, nil): self = .carousel
        case (.achievedGoals, nil): self = .achievedGoals
        case (.upcomingGoals, nil): self = .upcomingGoals
        case (.map, nil): self = .map
        case (.tripsByDate, let number?):
            guard let pageNumber = Int(number), pageNumber > 0 else { return nil }
            self = .tripsByDate(pageNumber: pageNumber)
        case (.tripsByDestination, nil): self = .tripsByDestination(after: nil)
        case (.tripsByDestination, let encoded?):
            guard let after = encoded.replacingOccurrences(of: "+", with: " ").removingPercentEncoding, !after.isEmpty else { return nil }
            self = .tripsByDestination(after: after)
        case (.collectionRow, let name?):
            guard let collection = TripCollection(rawValue: name) else { return nil }
            self = .collectionRow(collection)
        case (.tripHeader, _?):
            guard let tripID else { return nil }
            self = .tripHeader(tripID: tripID)
        case (.tripGallery, _?):
            guard let tripID else { return nil }
            self = .tripGallery(tripID: tripID)
        case (.activityList, _?), (.activityListEditing, _?):
            guard let tripID else { return nil }
            self = .activityList(tripID: tripID, editing: kind == .activityListEditing)
        case (.collectionListing, let rest?):
            let parts = rest.split(separator: ".").map(String.init)
            guard parts.count == 2, let collection = TripCollection(rawValue: parts[0]),
                  let pageNumber = Int(parts[1]), pageNumber > 0 else { return nil }
            self = .collectionListing(collection, pageNumber: pageNumber)
        case (.searchResults, let rest?):
            let parts = rest.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, let text = parts[2].replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
                  let query = try? SearchQuery(text) else { return nil }
            self = .searchResults(text: query.text, shown: ShownPages(trips: parts[0], activities: parts[1]))
        default: return nil
        }
    }

    private enum Kind: String {
        case carousel, achievedGoals = "goals-achieved", upcomingGoals = "goals-upcoming"
        case collectionRow = "collection", tripHeader = "trip-header", tripGallery = "trip-gallery"
        case activityList = "activity-list", activityListEditing = "activity-list-edit"
        case collectionListing = "collection-listing", searchResults = "search"
        case tripsByDate = "trips", tripsByDestination = "trips-by-destination", map
    }

    private var kind: Kind {
        switch self {
        case .carousel: .carousel
        case .collectionRow: .collectionRow
        case .tripHeader: .tripHeader
        case .tripGallery: .tripGallery
        case .activityList(_, let editing): editing ? .activityListEditing : .activityList
        case .achievedGoals: .achievedGoals
        case .upcomingGoals: .upcomingGoals
        case .collectionListing: .collectionListing
        case .searchResults: .searchResults
        case .tripsByDate: .tripsByDate
        case .tripsByDestination: .tripsByDestination
        case .map: .map
        }
    }
}
