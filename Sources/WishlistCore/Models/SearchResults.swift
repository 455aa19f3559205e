/// What the search screen shows: one page of matching trips and one of matching activities,
/// each with how many match in all. With an empty query it holds the most recent trips and
/// `isRecent` is true; with only single letters it holds nothing and `needsLongerWord` is true.
public struct SearchResults: Hashable, Sendable {
    public var trips: [Trip]
    public var activities: [ActivityMatch]
    public var isRecent: Bool
    public var tripTotal: MatchTotal
    public var activityTotal: MatchTotal
    /// The query had only words of one letter, which search does not look for (`SearchTerms`).
    public var needsLongerWord = false
    /// For a search that found nothing, a near spelling that finds something (`SearchSuggestion`).
    public var didYouMean: String?

    /// The most matches a search gathers, orders by name, counts and pages through (see
    /// `SubstringSearch`): ten pages of twenty, more than a person reads before adding a word.
    /// Each match costs a row lookup scattered over the table, so a smaller pool is much cheaper
    /// (figures: Benchmarks/README.md).
    public static let matchPool = 200
}

/// How many names match a search, beyond the page returned.
public struct MatchTotal: Hashable, Sendable {
    /// The number of matches, counted only up to `SearchResults.matchPool` (counting every
    /// match of a common word costs a scan of the index, more than the whole page).
    public var count: Int
    /// True when counting stopped short: there are `count` matches or more ("200+").
    public var isAtLeast: Bool
    /// Whether matches follow the page returned, within the ones paging can reach.
    public var hasMore: Bool

    public init(count: Int, isAtLeast: Bool, hasMore: Bool) {
        self.count = count
        self.isAtLeast = isAtLeast
        self.hasMore = hasMore
    }

    public static let zero = MatchTotal(count: 0, isAtLeast: false, hasMore: false)
}

/// An activity found by search, with the trip it belongs to.
public struct ActivityMatch: Hashable, Sendable {
    public var activity: Activity
    public var tripID: Int64 { activity.tripID }
    public var tripName: String
}
