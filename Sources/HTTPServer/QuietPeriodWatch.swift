import Dispatch
import Synchronization

/// Calls an action each time a server goes quiet: it answered requests, then none for a whole
/// `period` (checked every `period`, on a utility queue). For work that should wait for a lull,
/// such as giving caches' memory back after a burst.
public final class QuietPeriodWatch: Sendable {
    private let steps: Steps
    private let timer: Mutex<DispatchSourceTimer?>

    public convenience init(server: Server, period: DispatchTimeInterval, action: @escaping @Sendable () -> Void) {
        self.init(requestCount: { [server] in server.requestCount }, period: period, action: action)
    }

    /// Without a `period` there is no timer: `check()` is each period's step, for tests to call.
    init(requestCount: @escaping @Sendable () -> Int, period: DispatchTimeInterval?, action: @escaping @Sendable () -> Void) {
        let steps = Steps(requestCount: requestCount, action: action)
        self.steps = steps
        guard let period else {
            timer = Mutex(nil)
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.setEventHandler { steps.check() }
        timer.schedule(deadline: .now() + period, repeating: period)
        timer.activate()
        self.timer = Mutex(timer)
    }

    /// One period has passed: calls the action if requests came before it and none during it.
    func check() {
        steps.check()
    }

    /// No more calls after this returns, except one already running.
    public func cancel() {
        steps.cancel()
        timer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
    }

    deinit { cancel() }

    /// The decision at each period's end, apart from the timer that calls it.
    private final class Steps: Sendable {
        private struct State {
            var countAtLastCheck: Int
            var servedSinceAction = false
            var isCancelled = false
        }

        private let requestCount: @Sendable () -> Int
        private let action: @Sendable () -> Void
        private let state: Mutex<State>

        init(requestCount: @escaping @Sendable () -> Int, action: @escaping @Sendable () -> Void) {
            self.requestCount = requestCount
            self.action = action
            state = Mutex(State(countAtLastCheck: requestCount()))
        }

        func check() {
            let count = requestCount()
            let isLull = state.withLock { state -> Bool in
                guard !state.isCancelled else { return false }
                defer { state.countAtLastCheck = count }
                if count != state.countAtLastCheck {
                    state.servedSinceAction = true
                    return false
                }
                defer { state.servedSinceAction = false }
                return state.servedSinceAction
            }
            if isLull { action() }
        }

        func cancel() {
            state.withLock { $0.isCancelled = true }
        }
    }
}
