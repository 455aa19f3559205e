import Foundation

/// One server-sent event as a browser would dispatch it.
public struct ServerEvent {
    public var id: String?
    public var name = "message"
    public var data = ""

    public func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else {
            throw TestFailure("event data is not a JSON object: \(data)")
        }
        return object
    }
}

extension SocketClient {
    /// Opens an event stream; throws unless the server answers 200 `text/event-stream`.
    public static func openEvents(_ target: String, port: Int, headers: [String: String] = [:],
                                  timeoutSeconds: Int = 5) throws -> SocketClient {
        let client = try SocketClient(port: port, timeoutSeconds: timeoutSeconds)
        let head = try client.request("GET", target, headers: headers.merging(["Accept": "text/event-stream"]) { $1 },
                                      expectBody: false)
        guard head.status == 200, head.header("Content-Type") == "text/event-stream" else {
            throw TestFailure("not an event stream: \(head.status) \(head.headers)")
        }
        client.streamHead = head
        return client
    }

    /// The next event, skipping comments (heartbeats); throws on timeout or end of stream.
    public func nextEvent() throws -> ServerEvent {
        while true {
            if let end = pendingEventText.range(of: "\n\n") {
                let block = pendingEventText[..<end.lowerBound]
                pendingEventText.removeSubrange(..<end.upperBound)
                if let event = Self.event(in: block) { return event }
                continue
            }
            guard let chunk = try readStreamBytes() else { throw TestFailure("stream ended after: \(streamReceived)") }
            let text = String(decoding: chunk, as: UTF8.self)
            pendingEventText += text
            streamReceived += text
        }
    }

    /// The next event named `name`, skipping others.
    public func nextEvent(named name: String) throws -> ServerEvent {
        while true {
            let event = try nextEvent()
            if event.name == name { return event }
        }
    }

    /// Reads the event stream until the text received contains `marker`; returns all of it.
    public func readEvents(until marker: String) throws -> String {
        var text = ""
        while !text.contains(marker) {
            guard let chunk = try readStreamBytes() else { throw TestFailure("stream ended: \(text)") }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text
    }

    /// The event in one block of lines; nil for a block of comments only.
    private static func event(in block: Substring) -> ServerEvent? {
        var event = ServerEvent()
        var dataLines: [Substring] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) where !line.hasPrefix(":") {
            let (field, value) = line.firstIndex(of: ":").map { colon in
                (line[..<colon], line[line.index(after: colon)...].drop { $0 == " " })
            } ?? (line, "")
            switch field {
            case "id": event.id = String(value)
            case "event": event.name = String(value)
            case "data": dataLines.append(value)
            default: break
            }
        }
        guard !dataLines.isEmpty || event.name != "message" else { return nil }
        event.data = dataLines.joined(separator: "\n")
        return event
    }
}
