// sse-bench: idle SSE streams against a running `wishlist serve`, then commit-to-delivery times.
//
//   sse-bench PORT SERVER_PID [CLIENTS] [COMMITS]
//
// One thread and one epoll set hold every stream, so the client adds little to what it measures;
// the commit's POST is timed on a thread of its own, as another tab would send it.
// Each commit is an HTTP POST check-off of the 10th seeded activity, toggled, which moves the
// "10 Activities" badge and so sends one `goals-achieved` fragment to every stream.
import CLinuxExtras
import Foundation
import Glibc
import Synchronization

let arguments = CommandLine.arguments
guard arguments.count >= 3, let port = UInt16(arguments[1]), let serverPID = Int32(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: sse-bench PORT SERVER_PID [CLIENTS] [COMMITS]\n".utf8))
    exit(2)
}
let clientCount = arguments.count > 3 ? Int(arguments[3]) ?? 10_000 : 10_000
let commitCount = arguments.count > 4 ? Int(arguments[4]) ?? 30 : 30

@MainActor func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("sse-bench: \(message)\n".utf8))
    exit(1)
}

@MainActor func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

@MainActor func connectToServer() -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    if descriptor < 0 || result != 0 { fail("cannot connect (errno \(errno)); raise ulimit -n?") }
    var noDelay: Int32 = 1
    setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
    return descriptor
}

@MainActor func sendAll(_ descriptor: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    var sent = 0
    while sent < bytes.count {
        let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if count <= 0 { fail("send failed (errno \(errno))") }
        sent += count
    }
}

/// Parses a reply arriving in pieces: head, then a Content-Length body.
struct ReplyReader {
    var bytes: [UInt8] = []

    /// (status, head, body) once the whole reply is in.
    var complete: (status: Int, head: String, body: [UInt8])? {
        guard let end = bytes.indices.dropLast(3).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 })
        else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        guard bytes.count >= end + 4 + length else { return nil }
        let status = Int(head.split(separator: " ")[1]) ?? 0
        return (status, head, Array(bytes[(end + 4)..<(end + 4 + length)]))
    }
}

/// A plain request on its own blocking connection, for setup.
@MainActor func request(_ text: String) -> (status: Int, head: String, body: [UInt8]) {
    let descriptor = connectToServer()
    defer { close(descriptor) }
    sendAll(descriptor, text)
    var reader = ReplyReader()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        if let reply = reader.complete { return reply }
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count <= 0 { fail("setup request got no reply") }
        reader.bytes += buffer[..<count]
    }
}

// MARK: Setup: the activity to toggle and a CSRF token

let search = request("GET /api/search?q=Pleasure%20Point HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
guard let found = try? JSONSerialization.jsonObject(with: Data(search.body)) as? [String: Any],
      let activity = (found["activities"] as? [[String: Any]])?.first, let activityID = activity["id"] as? Int,
      var isComplete = activity["isComplete"] as? Bool
else { fail("no seeded activity “Surf at Pleasure Point”: start from a fresh data directory") }
let goalsPage = request("GET /goals HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
let cookiePrefix = "set-cookie: csrf_token="
guard let cookieLine = goalsPage.head.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix(cookiePrefix) })
else { fail("no csrf_token cookie from /goals") }
let csrfToken = cookieLine.dropFirst(cookiePrefix.count).prefix { $0 != ";" }

/// The check-off as a browser posts it (without following the redirect).
@MainActor func toggleRequest() -> String {
    isComplete.toggle()
    let body = "complete=\(isComplete)"
    return "POST /activities/\(activityID)/complete HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: csrf_token=\(csrfToken)\r\n"
        + "X-CSRF-Token: \(csrfToken)\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
}

// MARK: Streams

/// Counts occurrences of a marker in a byte stream that arrives in pieces (memmem: the client
/// must stay cheap beside the server it measures).
struct MarkerCounter {
    static let fragment = Array("event: fragment\n".utf8)
    static let ready = Array("event: ready\n".utf8)
    let marker: [UInt8]
    /// The end of the previous piece, in case a marker straddles two reads.
    var tail: [UInt8] = []
    var count = 0

    mutating func scan(_ piece: UnsafeRawBufferPointer) {
        let bytes = tail + piece
        count += bytes.withUnsafeBytes { occurrences(in: $0) }
        tail = Array(bytes.suffix(marker.count - 1))
    }

    private func occurrences(in buffer: UnsafeRawBufferPointer) -> Int {
        guard let start = buffer.baseAddress else { return 0 }
        return marker.withUnsafeBytes { marker -> Int in
            var found = 0
            var offset = 0
            while let match = memmem(start + offset, buffer.count - offset, marker.baseAddress!, marker.count) {
                found += 1
                offset = start.distance(to: UnsafeRawPointer(match)) + marker.count
            }
            return found
        }
    }
}

struct Stream {
    var ready = MarkerCounter(marker: MarkerCounter.ready)
    var fragments = MarkerCounter(marker: MarkerCounter.fragment)
    /// When this stream got the fragment of the commit being timed.
    var deliveredAt: Double?
}

let epoll = epoll_create1(0)
var streams: [Int32: Stream] = [:]
var readyCount = 0
/// The fragment count every stream reaches with the commit being timed, and how many have.
var expectedFragments = 0
var deliveredCount = 0
var readBuffer = [UInt8](repeating: 0, count: 65536)

/// The commit's POST connection, read by its own thread (`TimedPost`).
let commitConnection = connectToServer()

@MainActor func watch(_ descriptor: Int32) {
    var event = epoll_event()
    event.events = EPOLLIN.rawValue
    event.data.fd = descriptor
    epoll_ctl(epoll, EPOLL_CTL_ADD, descriptor, &event)
}

@MainActor func receive(_ piece: UnsafeRawBufferPointer, on descriptor: Int32) {
    var stream = streams[descriptor]!
    if stream.ready.count == 0 {
        stream.ready.scan(piece)
        if stream.ready.count > 0 { readyCount += 1 }
    }
    stream.fragments.scan(piece)
    if stream.deliveredAt == nil, stream.fragments.count >= expectedFragments {
        stream.deliveredAt = now()
        deliveredCount += 1
    }
    streams[descriptor] = stream
}

/// Handles readiness until `done()` or `timeout` seconds; false on timeout.
@MainActor func pump(timeout: Double, until done: () -> Bool) -> Bool {
    let deadline = now() + timeout
    var events = [epoll_event](repeating: epoll_event(), count: 1024)
    while !done() {
        let remaining = deadline - now()
        if remaining <= 0 { return false }
        let count = epoll_wait(epoll, &events, Int32(events.count), Int32(remaining * 1000) + 1)
        for index in 0..<max(0, Int(count)) {
            let descriptor = events[index].data.fd
            while true {
                let received = readBuffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if received <= 0 {
                    if received == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) { fail("the server closed a connection") }
                    break
                }
                readBuffer.withUnsafeBytes { bytes in
                    receive(UnsafeRawBufferPointer(rebasing: bytes[..<received]), on: descriptor)
                }
            }
        }
    }
    return true
}

/// One request sent and its reply read on a blocking connection, on a thread of its own. Read in
/// the streams' epoll loop, the POST's reply waited behind up to a batch of 1,024 streams' reads:
/// the loop's time, not the server's.
final class TimedPost: Sendable {
    private let reply = Mutex<(status: Int, milliseconds: Double)?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    init(_ request: String, on descriptor: Int32) {
        Thread.detachNewThread { [self] in
            let bytes = Array(request.utf8)
            let start = Self.seconds()
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard count > 0 else { break }
                sent += count
            }
            var reader = ReplyReader()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while reader.complete == nil {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                reader.bytes += buffer[..<count]
            }
            let status = reader.complete?.status ?? 0
            reply.withLock { $0 = (status, (Self.seconds() - start) * 1000) }
            finished.signal()
        }
    }

    func wait() -> (status: Int, milliseconds: Double) {
        finished.wait()
        return reply.withLock { $0! }
    }

    private static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// Times one commit: until its POST is answered, and until every stream has its fragment.
/// Returns (POST round trip, each stream's delivery time), in milliseconds.
@MainActor func timeCommit() -> (post: Double, deliveries: [Double]) {
    for descriptor in streams.keys { streams[descriptor]!.deliveredAt = nil }
    deliveredCount = 0
    expectedFragments += streams.isEmpty ? 0 : 1
    let start = now()
    let post = TimedPost(toggleRequest(), on: commitConnection)
    let finished = pump(timeout: 10) { deliveredCount == streams.count }
    if !finished { fail("after 10 s, \(deliveredCount) of \(streams.count) streams had the fragment") }
    let reply = post.wait()
    if reply.status != 303 { fail("the check-off POST answered \(reply.status)") }
    return (reply.milliseconds, streams.values.map { ($0.deliveredAt! - start) * 1000 })
}

@MainActor func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
}

@MainActor func format(_ milliseconds: Double) -> String { String(format: "%.1f ms", milliseconds) }

/// utime + stime of the server, in clock ticks (fields 14 and 15 of /proc/PID/stat).
@MainActor func serverCPUTicks() -> Int {
    guard let stat = try? String(contentsOfFile: "/proc/\(serverPID)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { fail("cannot read /proc/\(serverPID)/stat") }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    return Int(fields[11])! + Int(fields[12])!
}

@MainActor func serverStatus(_ field: String) -> String {
    let status = (try? String(contentsOfFile: "/proc/\(serverPID)/status", encoding: .utf8)) ?? ""
    return status.split(separator: "\n").first { $0.hasPrefix(field + ":") }?
        .dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces) ?? "?"
}

// MARK: The run

// Warm-up, then the same commit with nobody listening.
for _ in 0..<3 { _ = timeCommit() }
let quietCommits = (0..<commitCount).map { _ in timeCommit().post }

let rssBefore = serverStatus("VmRSS")
let openStart = now()
for batchStart in stride(from: 0, to: clientCount, by: 500) {
    for _ in batchStart..<min(clientCount, batchStart + 500) {
        let descriptor = connectToServer()
        sendAll(descriptor, "GET /events?topics=goals-achieved HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        streams[descriptor] = Stream()
        watch(descriptor)
    }
    if !pump(timeout: 30, until: { readyCount == streams.count }) {
        fail("streams did not open within 30 s")
    }
}
let openSeconds = now() - openStart

usleep(1_000_000)  // let the opening settle before measuring idleness
let ticksBefore = serverCPUTicks()
let idleStart = now()
usleep(10_000_000)
let idleSeconds = now() - idleStart
let idleCPU = Double(serverCPUTicks() - ticksBefore) / Double(sysconf(Int32(_SC_CLK_TCK))) / idleSeconds * 100
let rssIdle = serverStatus("VmRSS")
let threads = serverStatus("Threads")

var fanOut: [Double] = []
var allDeliveries: [Double] = []
var loadedCommits: [Double] = []
let ticksBeforeCommits = serverCPUTicks()
for _ in 1...commitCount {
    let (post, deliveries) = timeCommit()
    fanOut.append(deliveries.max() ?? 0)
    allDeliveries += deliveries
    loadedCommits.append(post)
    usleep(100_000)
}
let cpuPerCommit = Double(serverCPUTicks() - ticksBeforeCommits) / Double(sysconf(Int32(_SC_CLK_TCK))) / Double(commitCount) * 1000

print("""
    | \(clientCount) idle SSE streams (topics=goals-achieved), loopback | |
    |---|---|
    | streams opened in | \(String(format: "%.1f s", openSeconds)) |
    | server RSS before streams → with streams | \(rssBefore) → \(rssIdle) |
    | server threads with streams open | \(threads) |
    | server idle CPU over \(String(format: "%.0f", idleSeconds)) s | \(String(format: "%.2f %%", idleCPU)) |

    | \(commitCount) commits (POST check-off) | median | p99 |
    |---|---|---|
    | POST round trip, no subscribers | \(format(percentile(quietCommits, 0.5))) | \(format(percentile(quietCommits, 0.99))) |
    | POST round trip, \(clientCount) subscribers | \(format(percentile(loadedCommits, 0.5))) | \(format(percentile(loadedCommits, 0.99))) |
    | commit → last of \(clientCount) streams has the fragment | \(format(percentile(fanOut, 0.5))) | \(format(percentile(fanOut, 0.99))) |
    | commit → each stream has it (\(allDeliveries.count) deliveries) | \(format(percentile(allDeliveries, 0.5))) | \(format(percentile(allDeliveries, 0.99))) |
    | server CPU time per commit with \(clientCount) subscribers (mean) | \(format(cpuPerCommit)) | |
    """)
