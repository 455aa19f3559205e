/// Percent-decoding for paths, query strings and url-encoded forms, and the encoding back.
enum PercentEncoding {
    /// Escapes every byte of `text` but the unreserved ones (RFC 3986) and those in `kept`.
    static func encode(_ text: String, keeping kept: String = "") -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        for byte in text.utf8 {
            if byte.isUnreserved || kept.utf8.contains(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Decodes `%XX` escapes (and `+` as space when `plusAsSpace`). Returns nil for a malformed
    /// escape, invalid UTF-8 or a NUL byte, which no legitimate path or field contains.
    static func decode(_ text: some StringProtocol, plusAsSpace: Bool) -> String? {
        var text = String(text)
        return text.withUTF8 { decode($0, plusAsSpace: plusAsSpace) }
    }

    /// Parses `a=1&b=2` (query strings). Pairs that do not decode are dropped rather than
    /// failing the whole request.
    static func parseFields(_ text: some StringProtocol) -> FieldList {
        parse(text, droppingUndecodable: true) ?? FieldList()
    }

    /// Parses an `application/x-www-form-urlencoded` body; nil when any pair does not decode
    /// (a form field must never silently go missing: that would read as an empty field).
    static func parseForm(_ text: some StringProtocol) -> FieldList? {
        parse(text, droppingUndecodable: false)
    }

    /// On the UTF-8 bytes: splitting a `String` at `&` walks its characters (grapheme breaking),
    /// which was a tenth of a check-off's instructions.
    private static func parse(_ text: some StringProtocol, droppingUndecodable: Bool) -> FieldList? {
        var text = String(text)
        return text.withUTF8 { bytes -> FieldList? in
            var fields = FieldList()
            for pair in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
                let equals = pair.firstIndex(of: UInt8(ascii: "="))
                let name = UnsafeBufferPointer(rebasing: pair[..<(equals ?? pair.endIndex)])
                let value = UnsafeBufferPointer(rebasing: equals.map { pair[pair.index(after: $0)...] } ?? pair[pair.endIndex...])
                guard let name = decode(name, plusAsSpace: true), let value = decode(value, plusAsSpace: true) else {
                    if droppingUndecodable { continue } else { return nil }
                }
                fields.append(name, value)
            }
            return fields
        }
    }

    /// `bytes` are valid UTF-8 (a `String`'s); only decoded escapes can make them invalid.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> String? {
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return bytes.contains(0) ? nil : String(decoding: bytes, as: UTF8.self)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else { return nil }
                decoded.append(high << 4 | low)
                index += 3
                continue
            }
            decoded.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        guard !decoded.contains(0) else { return nil }
        return String(validating: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

private extension UInt8 {
    var isUnreserved: Bool {
        switch self {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }
}
