import Mustache
import WishlistCore

/// A part of a screen: shown in its page, sent to open pages when it changes (see `LiveTopic`),
/// and the source of the JSON API's answer where there is one. One query fetches everything
/// it shows; one view struct is all its partial reads. A page renders the partial with the view
/// in the same pass as the page itself (`{{#carousel}}{{>partials/carousel}}{{/carousel}}`), a
/// live update renders it alone (`PageRenderer.liveHTML`): the same bytes for the same data, but
/// for the viewer's CSRF token (FragmentTests).
protocol Fragment: Sendable {
    associatedtype Value: Equatable & Sendable
    associatedtype View: FragmentView
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

/// A fragment's value as a page keeps it: after a commit the page compares the value read
/// again with this one, and draws itself again only when they differ (`PageRenderer.cached`).
struct ShownValue: Equatable, Sendable {
    let value: any Equatable & Sendable

    static func == (lhs: ShownValue, rhs: ShownValue) -> Bool { lhs.value.isEqual(to: rhs.value) }
}

private extension Equatable {
    func isEqual(to other: any Equatable) -> Bool { (other as? Self) == self }
}

extension Fragment {
    /// The fragment's value in `snapshot`, for a page that shows it.
    func shown(in snapshot: WishlistSnapshot) throws -> ShownValue {
        ShownValue(value: try snapshot.fetch(query))
    }

    /// The view of a value `shown(in:)` read, for its page's template; nil when its record is gone.
    func view(of shown: ShownValue) -> MustacheValue? {
        guard let value = shown.value as? Value else { preconditionFailure("\(Self.self) shows \(Value.self), not \(type(of: shown.value))") }
        return view(value)?.mustacheValue
    }
}
