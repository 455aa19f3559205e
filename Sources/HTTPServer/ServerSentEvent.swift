/// One server-sent event. Encoding puts each line of `data` on its own `data:` line and drops
/// line breaks from `id` and `event`, so user text cannot inject fields or events.
public struct ServerSentEvent: Sendable {
    public var id: String?
    public var event: String?
    public var data: String
    /// How long the browser waits before reconnecting, in milliseconds.
    public var retry: Int?

    public init(id: String? = nil, event: String? = nil, data: String, retry: Int? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
    }

    /// The wire format, ending with the blank line that dispatches the event.
    public var encoded: [UInt8] {
        var text = ""
        if let id { text += "id: \(Self.singleLine(id).filter { $0 != "\0" })\n" }
        if let event { text += "event: \(Self.singleLine(event))\n" }
        if let retry { text += "retry: \(retry)\n" }
        for line in data.filter({ $0 != "\r" }).split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: \(line)\n"
        }
        text += "\n"
        return Array(text.utf8)
    }

    private static func singleLine(_ text: String) -> String {
        text.filter { $0 != "\r" && $0 != "\n" }
    }
}
