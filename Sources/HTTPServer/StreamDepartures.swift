import CMicroHTTPD
import Foundation
import Glibc
import Synchronization

/// Notices at once that the client of an event stream went away. A browser sends nothing on a
/// stream after its request, so its socket turning readable (end of file, or a reset) means it
/// left. libmicrohttpd leaves a waiting stream's socket alone, so without this a departure was
/// seen only at the next heartbeat's failed write, up to 15 s later, and meanwhile the stream
/// still counted against its address's limit: a person walking a few dozen pages, each opening
/// a stream, found live updates refused.
final class StreamDepartures: Sendable {
    static let shared = StreamDepartures()

    private let epoll: Int32
    private struct Watched {
        var streams: [UInt64: (stream: EventStream, socket: Int32)] = [:]
        var keyByStream: [ObjectIdentifier: UInt64] = [:]
        /// Keys are never reused: an event read just before its socket was closed and its number
        /// given to another stream's connection must not close that stream.
        var nextKey: UInt64 = 0
    }
    private let watched = Mutex(Watched())

    private init() {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { return }  // no descriptor: departures are seen at the heartbeat
        let thread = Thread { self.closeDeparted() }
        thread.name = "stream departures"
        thread.start()
    }

    private func closeDeparted() {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while true {
            let count = epoll_wait(epoll, &events, Int32(events.count), -1)
            for event in events.prefix(max(0, Int(count))) {
                let departed = watched.withLock { watched -> EventStream? in
                    guard let entry = watched.streams.removeValue(forKey: event.data.u64) else { return nil }
                    watched.keyByStream[ObjectIdentifier(entry.stream)] = nil
                    return entry.stream
                }
                departed?.close()
            }
        }
    }

    /// Closes `stream` as soon as its client closes `socket` (once).
    func watch(_ stream: EventStream, socket: Int32) {
        guard epoll >= 0 else { return }
        let key = watched.withLock { watched in
            defer { watched.nextKey += 1 }
            watched.streams[watched.nextKey] = (stream, socket)
            watched.keyByStream[ObjectIdentifier(stream)] = watched.nextKey
            return watched.nextKey
        }
        var event = epoll_event()
        event.events = EPOLLRDHUP.rawValue | EPOLLIN.rawValue | EPOLLONESHOT.rawValue
        event.data.u64 = key
        if epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) != 0 { forget(stream) }
    }

    /// Stops watching `stream`'s socket, before its connection closes it.
    func forget(_ stream: EventStream) {
        let socket = watched.withLock { watched -> Int32? in
            guard let key = watched.keyByStream.removeValue(forKey: ObjectIdentifier(stream)) else { return nil }
            return watched.streams.removeValue(forKey: key)?.socket
        }
        if let socket { epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nil) }
    }
}
