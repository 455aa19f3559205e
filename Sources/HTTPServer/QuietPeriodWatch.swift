import Dispatch
import Synchronization

/// Calls an action each time a server goes quiet: it answered requests, then none for a whole
/// `period` (checked every `period`, on a utility queue). For work that should wait for a lull,
/// such as giving caches' memory back after a burst.
public final class QuietPeriodWatch: Sendable {
    private struct State {
        var countAtLastCheck: Int
        var servedSinceAction = false
    }

    private let timer: Mutex<DispatchSourceTimer?>

    public init(server: Server, period: DispatchTimeInterval, action: @escaping @Sendable () -> Void) {
        let state = Mutex(State(countAtLastCheck: server.requestCount))
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.setEventHandler { [server] in
            let count = server.requestCount
            let isLull = state.withLock { state -> Bool in
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
        timer.schedule(deadline: .now() + period, repeating: period)
        timer.activate()
        self.timer = Mutex(timer)
    }

    /// No more calls after this returns, except one already running.
    public func cancel() {
        timer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
    }

    deinit { cancel() }
}
