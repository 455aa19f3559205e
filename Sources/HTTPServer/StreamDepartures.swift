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
    /// The stream on each watched socket.
    private let streams = Mutex<[Int32: EventStream]>([:])

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
                streams.withLock { $0.removeValue(forKey: event.data.fd) }?.close()
            }
        }
    }

    /// Closes `stream` as soon as its client closes `socket` (once).
    func watch(_ stream: EventStream, socket: Int32) {
        guard epoll >= 0 else { return }
        streams.withLock { $0[socket] = stream }
        var event = epoll_event()
        event.events = EPOLLRDHUP.rawValue | EPOLLIN.rawValue | EPOLLONESHOT.rawValue
        event.data.fd = socket
        if epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) != 0 { forget(socket: socket) }
    }

    /// Stops watching `socket`, before its connection closes it.
    func forget(socket: Int32) {
        guard epoll >= 0, streams.withLock({ $0.removeValue(forKey: socket) }) != nil else { return }
        epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nil)
    }
}
