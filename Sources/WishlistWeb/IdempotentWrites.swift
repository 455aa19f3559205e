import Foundation
import HTTPServer
import Synchronization
import WishlistCore

/// A form post sent again with the same `Idempotency-Key` (a write kept while offline and sent
/// once more after its answer was lost) is written once: the first answer is remembered for a
/// day and given again, without running the write. A post arriving while the first with its
/// key is still being written waits for its answer (a replay storm gets one commit and one
/// answer), up to `waitLimit`, then gets 409, to try again a moment later. Only answers that say
/// what happened are remembered (no server error, no body larger than `maxBody`): anything else
/// is run again, as a post without a key is.
final class IdempotentWrites: Middleware, Sendable {
    static let header = "Idempotency-Key"
    static let lifetime: TimeInterval = 24 * 60 * 60
    /// Keys remembered at most; past it the oldest go. A remembered answer is a redirect, mostly.
    static let capacity = 10_000
    static let maxBody = 16 << 10
    static let waitLimit: DispatchTimeInterval = .seconds(5)

    private struct Answer: Sendable {
        let status: HTTPStatus
        let location: String?
        let contentType: String?
        let body: [UInt8]
        let expiry: Date

        var response: Response {
            var response = Response(status: status, body: .bytes(body))
            if let location { response.headers["Location"] = location }
            if let contentType { response.headers["Content-Type"] = contentType }
            return response
        }
    }

    private enum Entry: Sendable {
        /// Left when the write has its answer (or none to remember).
        case writing(DispatchGroup)
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
        let writing = DispatchGroup()
        let found = state.withLock { state -> Entry? in
            if let entry = state.entries[key] {
                if case .answered(let answer) = entry, answer.expiry > now { return entry }
                if case .writing = entry { return entry }
            } else {
                state.order.append(key)
                if state.order.count > Self.capacity { state.entries[state.order.removeFirst()] = nil }
            }
            writing.enter()
            state.entries[key] = .writing(writing)
            return nil
        }
        switch found {
        case .writing(let other)?:
            guard other.wait(timeout: .now() + Self.waitLimit) == .success,
                  case .answered(let answer)? = state.withLock({ $0.entries[key] }) else {
                throw HTTPError(.conflict, "This change is being saved already. Try again in a moment.")
            }
            return answer.response
        case .answered(let answer)?:
            return answer.response
        case nil:
            defer { writing.leave() }
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
