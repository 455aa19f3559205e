import Glibc
import Synchronization

/// Holds each client address to `limit` connections. When an address opens one more, its oldest
/// connection outside a request (still sending its head, or idle between requests) is closed to
/// make room: sockets a page or a flood left open cannot lock out a browser's new connection from
/// the same address (on loopback, or behind a proxy, that address is everyone). Only when every
/// connection of the address is inside a request is the new one closed instead.
final class AddressQuota: Sendable {
    private struct Connection {
        let id: UInt64
        let socket: Int32
        var isInRequest = false
        /// Shut down by the quota; libmicrohttpd has yet to notice and close it.
        var isClosing = false
    }

    private struct State {
        /// Never reused, so a stale id never names a newer connection; 0 is no connection.
        var lastID: UInt64 = 0
        /// Each address's connections, oldest first.
        var byAddress: [String: [Connection]] = [:]
        var addressOfID: [UInt64: String] = [:]
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// A connection from `address` on `socket` opened; returns its id. Closes (shuts down, for
    /// libmicrohttpd to notice) the connection that must go if the address is over its share.
    /// The socket stays open until `closed` is called: libmicrohttpd reports the close first.
    func opened(address: String, socket: Int32) -> UInt64 {
        state.withLock { state in
            state.lastID += 1
            let id = state.lastID
            state.addressOfID[id] = address
            var connections = state.byAddress[address, default: []]
            connections.append(Connection(id: id, socket: socket))
            if connections.count(where: { !$0.isClosing }) > limit {
                let victim = connections.firstIndex { !$0.isClosing && !$0.isInRequest } ?? connections.count - 1
                connections[victim].isClosing = true
                shutdown(connections[victim].socket, Int32(SHUT_RDWR))
            }
            state.byAddress[address] = connections
            return id
        }
    }

    func closed(_ id: UInt64) {
        state.withLock { state in
            guard let address = state.addressOfID.removeValue(forKey: id) else { return }
            state.byAddress[address]?.removeAll { $0.id == id }
            if state.byAddress[address]?.isEmpty == true { state.byAddress[address] = nil }
        }
    }

    /// The connection's head is complete: it is inside a request until `requestEnded`.
    func requestStarted(_ id: UInt64) { setInRequest(id, true) }

    func requestEnded(_ id: UInt64) { setInRequest(id, false) }

    /// How many of the address's connections are open outside a request: the ones it may close.
    /// A client can read its answer before the server marks the request ended, so tests wait on this.
    func idleCount(of address: String) -> Int {
        state.withLock { $0.byAddress[address, default: []].count { !$0.isClosing && !$0.isInRequest } }
    }

    private func setInRequest(_ id: UInt64, _ isInRequest: Bool) {
        state.withLock { state in
            guard let address = state.addressOfID[id],
                  let index = state.byAddress[address]?.firstIndex(where: { $0.id == id }) else { return }
            state.byAddress[address]?[index].isInRequest = isInRequest
        }
    }
}
