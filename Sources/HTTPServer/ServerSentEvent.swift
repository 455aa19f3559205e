/// One server-sent event. Encoding puts each line of `data` (split at CR LF, CR or LF, as the
/// browser will) on its own `data:` line and drops line breaks from `id` and `event`, so user
/// text cannot inject fields or events.
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
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.utf8.count + 32)
        if let id { Self.appendField("id", id.utf8.filter { $0 != 0 && !Self.isLineBreak($0) }, to: &bytes) }
        if let event { Self.appendField("event", event.utf8.filter { !Self.isLineBreak($0) }, to: &bytes) }
        if let retry { Self.appendField("retry", Array(String(retry).utf8), to: &bytes) }
        var line: [UInt8] = []
        var previous: UInt8 = 0
        for byte in data.utf8 {
            if byte == lineFeed && previous == carriageReturn {
                // The second half of CR LF: the line already ended at the CR.
            } else if Self.isLineBreak(byte) {
                Self.appendField("data", line, to: &bytes)
                line.removeAll(keepingCapacity: true)
            } else {
                line.append(byte)
            }
            previous = byte
        }
        Self.appendField("data", line, to: &bytes)
        bytes.append(lineFeed)
        return bytes
    }

    private static func appendField(_ name: String, _ value: [UInt8], to bytes: inout [UInt8]) {
        bytes.append(contentsOf: name.utf8)
        bytes.append(contentsOf: ": ".utf8)
        bytes.append(contentsOf: value)
        bytes.append(lineFeed)
    }

    private static func isLineBreak(_ byte: UInt8) -> Bool {
        byte == lineFeed || byte == carriageReturn
    }
}

private let lineFeed = UInt8(ascii: "\n")
private let carriageReturn = UInt8(ascii: "\r")
