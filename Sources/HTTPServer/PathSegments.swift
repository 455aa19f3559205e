extension String {
    /// The non-empty segments of a path between its slashes, found on the bytes (splitting the
    /// `String` itself compares whole characters, several times slower, on every request).
    var pathSegments: [Substring] {
        var segments: [Substring] = []
        let bytes = utf8
        var start = bytes.startIndex
        for index in bytes.indices where bytes[index] == UInt8(ascii: "/") {
            if start < index { segments.append(self[start..<index]) }
            start = bytes.index(after: index)
        }
        if start < bytes.endIndex { segments.append(self[start...]) }
        return segments
    }
}
