/// The bytes of a rendering, appended without intermediate strings.
struct OutputBuffer {
    private(set) var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func append(_ slice: ArraySlice<UInt8>) {
        bytes.append(contentsOf: slice)
    }

    mutating func append(_ array: [UInt8]) {
        bytes.append(contentsOf: array)
    }

    /// Appends `value` as text: HTML-escaped when `escaped`, nothing for null, lists and objects.
    mutating func append(_ value: MustacheValue, escaped: Bool) {
        switch value {
        case .string(let string): escaped ? appendEscaped(string) : appendRaw(string)
        case .int(let number): appendDecimal(number)
        case .double(let number): appendRaw(number.description)
        case .bool(let flag): appendRaw(flag ? "true" : "false")
        case .null, .array, .object: break
        }
    }

    private mutating func appendRaw(_ string: String) {
        bytes.append(contentsOf: string.utf8)
    }

    /// Copies untouched runs in one go and replaces only the five characters significant in HTML.
    private mutating func appendEscaped(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                // Every escaped character is below '?': most bytes leave here.
                guard byte < UInt8(ascii: "?"), let entity = Self.entity(for: byte) else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                bytes.append(contentsOf: entity)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
    }

    private static func entity(for byte: UInt8) -> [UInt8]? {
        switch byte {
        case UInt8(ascii: "&"): ampersand
        case UInt8(ascii: "<"): lessThan
        case UInt8(ascii: ">"): greaterThan
        case UInt8(ascii: "\""): quote
        case UInt8(ascii: "'"): apostrophe
        default: nil
        }
    }

    private static let ampersand = Array("&amp;".utf8)
    private static let lessThan = Array("&lt;".utf8)
    private static let greaterThan = Array("&gt;".utf8)
    private static let quote = Array("&quot;".utf8)
    private static let apostrophe = Array("&#39;".utf8)

    private mutating func appendDecimal(_ number: Int) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}
