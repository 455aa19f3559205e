import HTTPServer
import Mustache
import Persistence
import Synchronization

/// Fragments as drawn, each kept with the value it was drawn from, by topic. A page drawn again
/// after a commit draws only its fragments whose value changed and splices in the kept bytes of
/// the rest (a check-off changes one collection row of `/`, not the carousel or the other three);
/// a live update sends the same kept bytes, so a commit's fragment is drawn once for the page
/// and every open tab. Validity is by value, not by region: regions are tables and columns, and
/// a check-off in any trip touches the columns every trip header reads.
final class KeptFragments: Sendable {
    /// A fragment drawn: its bytes with the viewer's token as a place (slot 0, as in pages).
    struct Drawn: Sendable {
        let value: any Equatable & Sendable
        let elementID: String
        let body: SplicedBody
    }

    /// Pages hold some 10 fragments of a few KB each; search topics are as many as texts typed.
    static let keptLimit = 1_000
    static let keptBytes = 3 << 20

    private let kept = Mutex(LeastRecentlyUsed<LiveTopic, Drawn>(capacity: keptLimit, maxCost: keptBytes))
    private let draw: @Sendable (any FragmentView) throws -> SplicedBody
    /// Fragments drawn (not taken as kept), for tests.
    let drawnCount = Atomic<Int>(0)

    /// `draw` renders a view's partial, the viewer's token a place of slot 0.
    init(draw: @escaping @Sendable (any FragmentView) throws -> SplicedBody) {
        self.draw = draw
    }

    /// `topic`'s fragment showing `value` (a value of `topic.fragment`'s query): the kept one
    /// while `value` equals what it was drawn from, else drawn and kept. Nil when its record is gone.
    func drawn(_ topic: LiveTopic, showing value: any Equatable & Sendable) throws -> Drawn? {
        if let drawn = kept.withLock({ $0.use(topic, if: { $0.value.isEqual(to: value) }) }) { return drawn }
        guard let view = topic.fragment.view(ofAny: value) else { return nil }
        let drawn = Drawn(value: value, elementID: view.elementID, body: try draw(view))
        drawnCount.add(1, ordering: .relaxed)
        kept.withLock { $0.insert(drawn, cost: drawn.body.heldBytes, for: topic) }
        return drawn
    }

    /// A view drawn for one page alone (one showing a form's problems), not kept.
    func drawn(unkept view: some FragmentView) throws -> SplicedBody {
        try draw(view)
    }
}

/// The fragments one page places in its template: each goes in the context as a placeholder,
/// which `PageRenderer.render` replaces with the fragment's bytes.
struct FragmentPlaces {
    fileprivate let fragments: KeptFragments
    fileprivate let placeholderPrefix: String
    private(set) var bodies: [SplicedBody] = []

    init(_ fragments: KeptFragments, placeholderPrefix: String) {
        self.fragments = fragments
        self.placeholderPrefix = placeholderPrefix
    }

    /// The placeholder of the `index`th fragment placed.
    static func placeholder(_ index: Int, prefix: String) -> String { "\(prefix)\(index)}" }

    /// `topic`'s fragment showing `value`, for the page's context (nothing when its record is gone).
    mutating func place(_ topic: LiveTopic, showing value: any Equatable & Sendable) throws -> MustacheValue {
        guard let drawn = try fragments.drawn(topic, showing: value) else { return .null }
        return place(drawn.body)
    }

    /// A fragment drawn for this page alone (one showing a form's problems), never kept.
    mutating func place(unkept view: some FragmentView) throws -> MustacheValue {
        place(try fragments.drawn(unkept: view))
    }

    private mutating func place(_ body: SplicedBody) -> MustacheValue {
        bodies.append(body)
        return .string(Self.placeholder(bodies.count - 1, prefix: placeholderPrefix))
    }
}
