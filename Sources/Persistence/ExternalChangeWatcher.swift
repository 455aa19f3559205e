import Dispatch
import Synchronization

/// Polls SQLite's `data_version` on a timer and reports when it moves.
///
/// The pragma runs on the writer connection: its data_version changes only when *another*
/// connection commits, and this process' readers never commit, so a change means another
/// process (or another `Database` on the same file) wrote. Our own writes never look external.
///
/// `@unchecked Sendable`: a dispatch source may be cancelled from any thread.
final class ExternalChangeWatcher: @unchecked Sendable {
    private let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "Persistence.external-changes"))

    /// `poll` returns (data_version, latest history token), or nil once the database is gone.
    init(interval: Duration,
         poll: @escaping @Sendable () throws -> (version: Int64, token: Int64)?,
         onChange: @escaping @Sendable (_ token: Int64) -> Void) {
        // The first reading is taken here, not on the timer's queue: a commit made after this
        // returns must count as a change, however late the timer first fires on a busy machine.
        let lastVersion = Mutex<Int64?>((try? poll())?.version)
        timer.setEventHandler {
            guard let current = try? poll() else { return }
            let previous = lastVersion.withLock { last in
                defer { last = current.version }
                return last
            }
            if let previous, previous != current.version { onChange(current.token) }
        }
        let (seconds, attoseconds) = interval.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        let period = DispatchTimeInterval.nanoseconds(max(nanoseconds, 1_000_000))
        timer.schedule(deadline: .now() + period, repeating: period)
        timer.resume()
    }

    func stop() {
        timer.cancel()
    }
}
