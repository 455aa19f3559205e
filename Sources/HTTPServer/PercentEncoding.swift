/// Percent-decoding for paths, query strings and url-encoded forms.
enum PercentEncoding {
    /// Decodes `%XX` escapes (and `+` as space when `plusAsSpace`). Returns nil for a malformed
    /// escape, invalid UTF-8 or a NUL byte, which no legitimate path or field contains.
    static func decode(_ text: some StringProtocol, plusAsSpace: Bool) -> String? {
        let utf8 = text.utf8
        if !utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) {
            return utf8.contains(0) ? nil : String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                guard high != utf8.endIndex else { return nil }
                let low = utf8.index(after: high)
                guard low != utf8.endIndex, let h = hexValue(utf8[high]), let l = hexValue(utf8[low]) else { return nil }
                bytes.append(h << 4 | l)
                index = utf8.index(after: low)
                continue
            }
            bytes.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index = utf8.index(after: index)
        }
        guard !bytes.contains(0) else { return nil }
        return String(validating: bytes, as: UTF8.self)
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

    private static func parse(_ text: some StringProtocol, droppingUndecodable: Bool) -> FieldList? {
        var fields = FieldList()
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0], plusAsSpace: true),
                  let value = decode(parts.count > 1 ? parts[1] : "", plusAsSpace: true) else {
                if droppingUndecodable { continue } else { return nil }
            }
            fields.append(name, value)
        }
        return fields
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
