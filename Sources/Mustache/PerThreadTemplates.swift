import Foundation
import Synchronization

/// The fixed templates, parsed once more for each thread that renders them.
///
/// Why: rendering retains and releases every parsed node it visits. Shared by the server's
/// worker threads, those atomic reference counts bounced between cores, and two workers spent
/// more CPU per request than one; with a copy per thread they no longer do (figures:
/// Benchmarks/README.md). Copies are kept per thread id, so a server holds a handful.
final class PerThreadTemplates: Sendable {
    /// The first parse: its names, and the fallback.
    let shared: [String: Template]
    private let copies = Mutex<[UInt: [String: Template]]>([:])

    init(_ parsed: [String: Template]) {
        shared = parsed
    }

    /// The calling thread's templates, parsed on its first call.
    var templates: [String: Template] {
        // A later thread may reuse an exited one's id, and its copy: harmless, a copy is a copy.
        let thread = UInt(pthread_self())
        if let copy = copies.withLock({ $0[thread] }) { return copy }
        // These sources parsed once already; should one fail now, the shared parse serves.
        let copy = shared.mapValues { template in (try? Template(template.source, name: template.name)) ?? template }
        copies.withLock { $0[thread] = copy }
        return copy
    }
}
