extension Request {
    /// Whether the client takes `coding` (e.g. "gzip") per its Accept-Encoding: named, or `*`,
    /// with a quality above zero. Read as bytes: through Foundation's trimming this was a third
    /// of the time of answering a kept page.
    public func acceptsEncoding(_ coding: String) -> Bool {
        guard let header = headers["Accept-Encoding"] else { return false }
        let wanted = Array(coding.utf8)
        var wildcard: Bool?
        for item in header.utf8.split(separator: UInt8(ascii: ",")) {
            let parts = item.split(separator: UInt8(ascii: ";")).map(Self.trimmed)
            guard let name = parts.first else { continue }
            let quality = parts.dropFirst().first { $0.starts(with: "q=".utf8) }
                .map { Double(String(decoding: $0.dropFirst(2), as: UTF8.self)) ?? 1 } ?? 1
            if Self.equalIgnoringASCIICase(name, wanted) { return quality > 0 }
            if name.elementsEqual("*".utf8) { wildcard = quality > 0 }
        }
        return wildcard ?? false
    }

    private static func trimmed(_ bytes: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return bytes[bytes.startIndex..<bytes.startIndex]
        }
        return bytes[first...last]
    }

    private static func equalIgnoringASCIICase(_ bytes: some Collection<UInt8>, _ other: [UInt8]) -> Bool {
        let lowered = { (byte: UInt8) in byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte }
        return bytes.count == other.count && zip(bytes, other).allSatisfy { lowered($0) == lowered($1) }
    }
}
