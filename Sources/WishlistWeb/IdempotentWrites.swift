import Foundation
import HTTPServer
import Synchronization
import WishlistCore

/// A form post sent again with the same `Idempotency-Key` (a write kept while offline and sent
/// once more after its answer was lost) is written once: the first answer is remembered for a
/// day and given again, without running the write. A post arriving while the first with its
/// key is still being written gets 409, to try again a moment later. Only answers that say what
/// happened are remembered (no server error, no body larger than `maxBody`): anything else is
/// run again, as a post without a key is.
final class IdempotentWrites: Middleware, Sendable {
    static let header = "Idempotency-Key"
    static let lifetime: TimeInterval = 24 * 60 * 60
    /// Keys remembered at most; past it the oldest go. A remembered answer is a redirect, mostly.
    static let capacity = 10_000
    static let maxBody = 16 << 10

    private struct Answer: Sendable {
        let status: HTTPStatus
        let location: String?
        let contentType: String?
        let body: [UInt8]
        let expiry: Date
    }

    private enum Entry: Sendable {
        case writing
        case answered(Answer)
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Keys in the order they came, for dropping the oldest.
        var order: [String] = []
    }

    private let state = Mutex(State())
    private let clock: DateSource

    init(clock: DateSource) {
        self.clock = clock
    }

    func respond(to request: Request, next: Handler) throws -> Response {
        guard request.method == .post, let key = request.headers[Self.header] else { return try next(request) }
        guard Self.isWellFormed(key) else {
            throw HTTPError(.badRequest, "An Idempotency-Key is 1 to 64 letters, digits, “-” and “_”.")
        }
        let now = clock.now()
        let found = state.withLock { state -> Entry? in
            if let entry = state.entries[key] {
                if case .answered(let answer) = entry, answer.expiry <= now { state.entries[key] = .writing; return nil }
                return entry
            }
            state.entries[key] = .writing
            state.order.append(key)
            if state.order.count > Self.capacity { state.entries[state.order.removeFirst()] = nil }
            return nil
        }
        switch found {
        case .writing?:
            throw HTTPError(.conflict, "This change is being saved already. Try again in a moment.")
        case .answered(let answer)?:
            var response = Response(status: answer.status, body: .bytes(answer.body))
            if let location = answer.location { response.headers["Location"] = location }
            if let contentType = answer.contentType { response.headers["Content-Type"] = contentType }
            return response
        case nil:
            let response: Response
            do {
                response = try next(request)
            } catch {
                forget(key)
                throw error
            }
            remember(response, for: key, at: now)
            return response
        }
    }

    private func remember(_ response: Response, for key: String, at now: Date) {
        let body: [UInt8]? = switch response.body {
        case .empty: []
        case .bytes(let bytes) where bytes.count <= Self.maxBody: bytes
        default: nil
        }
        guard response.status.code < 500, let body else { return forget(key) }
        let answer = Answer(status: response.status, location: response.headers["Location"],
                            contentType: response.headers["Content-Type"], body: body, expiry: now.addingTimeInterval(Self.lifetime))
        state.withLock { state in
            if state.entries[key] != nil { state.entries[key] = .answered(answer) }
        }
    }

    private func forget(_ key: String) {
        state.withLock { state in
            state.entries[key] = nil
            state.order.removeAll { $0 == key }
        }
    }

    static func isWellFormed(_ key: String) -> Bool {
        (1...64).contains(key.utf8.count) && key.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}
