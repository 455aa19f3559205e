import Foundation

/// Lets one heavy decode run at a time, so two bombs that each fit the budget cannot double
/// the peak between them; lighter decodes never wait. Uploads already run a few at once on the
/// upload queue, so a waiting decode holds a queue slot, not an HTTP thread.
public final class DecodeGate: @unchecked Sendable {  // state guarded by `condition`
    /// The process-wide gate every `Thumbnailer` uses unless given another.
    public static let shared = DecodeGate()

    private let condition = NSCondition()
    private var isBusy = false
    private let willWait: @Sendable () -> Void
    private let didEnter: @Sendable () -> Void

    /// `willWait` runs when a heavy decode has to wait for another, `didEnter` when one starts:
    /// hooks for tests, which observe the order without timing it.
    public init(willWait: @escaping @Sendable () -> Void = {}, didEnter: @escaping @Sendable () -> Void = {}) {
        self.willWait = willWait
        self.didEnter = didEnter
    }

    /// Runs `decode` alone among heavy decodes when `isHeavy`, at once otherwise.
    func run<Value>(heavy isHeavy: Bool, _ decode: () throws -> Value) rethrows -> Value {
        guard isHeavy else { return try decode() }
        condition.lock()
        if isBusy { willWait() }
        while isBusy { condition.wait() }
        isBusy = true
        condition.unlock()
        defer {
            condition.lock()
            isBusy = false
            condition.signal()
            condition.unlock()
        }
        didEnter()
        return try decode()
    }
}
