/// Text assembled as UTF-8 bytes, for lines and header values built on every request:
/// appending to a `String` piece by piece costs several times more than to a byte array.
extension [UInt8] {
    mutating func appendUTF8(_ text: some StringProtocol) {
        append(contentsOf: text.utf8)
    }

    mutating func appendDecimal(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude)
    }

    private mutating func appendDigits(_ value: UInt) {
        if value >= 10 { appendDigits(value / 10) }
        append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// The bytes as a `String` (they are UTF-8 by construction).
    var utf8String: String { String(decoding: self, as: UTF8.self) }
}
