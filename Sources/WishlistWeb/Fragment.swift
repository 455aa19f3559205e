import Mustache
import WishlistCore

/// A part of a screen: shown in its page, sent to open pages when it changes (see `LiveTopic`),
/// and the source of the JSON API's answer where there is one. One query fetches everything
/// it shows; one view struct is all its partial reads. Its partial is drawn alone, once per
/// value (`KeptFragments`): a page splices the drawn bytes in where its template places the
/// fragment (`{{{carousel}}}`), and a live update sends the same bytes, but for the viewer's
/// CSRF token (FragmentTests).
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

extension Equatable {
    func isEqual(to other: any Equatable) -> Bool { (other as? Self) == self }
}

extension Fragment {
    /// The fragment's value in `snapshot`, for a page that shows it.
    func shown(in snapshot: WishlistSnapshot) throws -> ShownValue {
        ShownValue(value: try snapshot.fetch(query))
    }

    /// The view of `value`, which must be of this fragment's `Value`; nil when its record is gone.
    func view(ofAny value: any Equatable & Sendable) -> (any FragmentView)? {
        guard let value = value as? Value else { preconditionFailure("\(Self.self) shows \(Value.self), not \(type(of: value))") }
        return view(value)
    }
}
