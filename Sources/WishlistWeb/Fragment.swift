import Mustache
import Persistence
import WishlistCore

/// A part of a screen: shown in its page, sent to open pages when it changes (its `topic`), and
/// the source of the JSON API's answer where there is one. One query fetches everything it
/// shows; one view struct is all its partial reads. Its partial is drawn alone, once per read
/// that changed what it shows (`TopicStore`): a page splices the drawn bytes in where its
/// template places the fragment (`{{{carousel}}}`), and a live update sends the same bytes, but
/// for the viewer's CSRF token (FragmentTests).
protocol Fragment: Sendable {
    associatedtype Value: Equatable & Sendable
    associatedtype View: FragmentView
    /// The name open pages follow it by; `topic.fragment` is this fragment again.
    var topic: LiveTopic { get }
    var query: WishlistQuery<Value> { get }
    /// Nil when there is nothing to show: the record is gone.
    func view(_ value: Value) -> View?
}

/// The view a fragment's partial renders. The element the partial wraps itself in carries
/// `elementID`, the element a live update replaces.
protocol FragmentView: MustacheConvertible {
    static var partial: String { get }
    var elementID: String { get }
}

extension FragmentView {
    /// The view's fields plus its element id, for its partial.
    func object(_ fields: [String: MustacheValue]) -> MustacheValue {
        var fields = fields
        fields["elementID"] = .string(elementID)
        return .object(fields)
    }
}

/// A fragment with its value as read, and what that read depended on and when: its drawn bytes
/// stay current while nothing in that region changes (`TopicStore`).
struct FragmentRead<F: Fragment>: Sendable {
    let fragment: F
    let read: TrackedRead<F.Value>

    var value: F.Value { read.value }
}

extension Fragment {
    /// The fragment's value in `snapshot`, for a page that shows it.
    func read(in snapshot: WishlistSnapshot) throws -> FragmentRead<Self> {
        FragmentRead(fragment: self, read: try snapshot.readTracking(query))
    }
}
