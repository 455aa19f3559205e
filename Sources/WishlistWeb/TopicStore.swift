import HTTPServer
import Mustache
import Persistence
import Synchronization

/// Fragments as drawn, by topic, each with what the read it was drawn from depended on and when.
/// A page drawn again after a commit splices in the kept bytes of every fragment whose region the
/// commit left alone (a check-off changes one collection row of `/`, not the carousel or the other
/// three); a live update draws a changed fragment once, for every open tab and the next page.
/// Still current means one thing here as in `KeptRows`: `Database.isUnchanged`.
final class TopicStore: Sendable {
    /// A fragment drawn: its bytes with the viewer's token as a place (`PageSlot.csrfToken`).
    struct Drawn: Sendable {
        let elementID: String
        let body: SplicedBody
        let region: DatabaseRegion
        let generation: UInt64
    }

    /// Pages hold some 10 fragments of a few KB each; search topics are as many as texts typed.
    static let keptLimit = 1_000
    static let keptBytes = 3 << 20

    private let database: Database
    private let kept = Mutex(LeastRecentlyUsed<LiveTopic, Drawn>(capacity: keptLimit, maxCost: keptBytes))
    private let draw: @Sendable (any FragmentView) throws -> SplicedBody
    /// Fragments drawn (not taken as kept), for tests.
    let drawnCount = Atomic<Int>(0)

    /// `draw` renders a view's partial, the viewer's token a place of its own.
    init(database: Database, draw: @escaping @Sendable (any FragmentView) throws -> SplicedBody) {
        self.database = database
        self.draw = draw
    }

    /// The fragment of `shown`: the kept one while nothing it was drawn from changed, as seen
    /// from `shown`'s snapshot too, else drawn and kept. Nil when its record is gone.
    func drawn<F: Fragment>(_ shown: FragmentRead<F>) throws -> Drawn? {
        let topic = shown.fragment.topic
        if let drawn = kept.withLock({ $0.use(topic) }),
           database.isUnchanged(drawn.region, since: min(drawn.generation, shown.read.generation)) {
            return drawn
        }
        guard let view = shown.fragment.view(shown.value) else { return nil }
        let drawn = Drawn(elementID: view.elementID, body: try draw(view), region: shown.read.region, generation: shown.read.generation)
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
    fileprivate let store: TopicStore
    fileprivate let placeholderPrefix: String
    private(set) var bodies: [SplicedBody] = []

    init(_ store: TopicStore, placeholderPrefix: String) {
        self.store = store
        self.placeholderPrefix = placeholderPrefix
    }

    /// The placeholder of the `index`th fragment placed.
    static func placeholder(_ index: Int, prefix: String) -> String { "\(prefix)\(index)}" }

    /// The fragment of `shown`, for the page's context (nothing when its record is gone).
    mutating func place<F: Fragment>(_ shown: FragmentRead<F>) throws -> MustacheValue {
        guard let drawn = try store.drawn(shown) else { return .null }
        return place(drawn.body)
    }

    /// A fragment drawn for this page alone (one showing a form's problems), never kept.
    mutating func place(unkept view: some FragmentView) throws -> MustacheValue {
        place(try store.drawn(unkept: view))
    }

    private mutating func place(_ body: SplicedBody) -> MustacheValue {
        bodies.append(body)
        return .string(Self.placeholder(bodies.count - 1, prefix: placeholderPrefix))
    }
}
