/// The bytes of a rendering: one growing allocation, appended to with plain `memcpy`s.
///
/// Unsafe storage because `Array.append(contentsOf:)` costs several times a copy of the
/// short runs a template is made of, and a page is hundreds of them.
struct OutputBuffer: ~Copyable {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(reservingCapacity requested: Int) {
        capacity = max(requested, 256)
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deallocate()
    }

    var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: storage, count: count))
    }

    var string: String {
        String(decoding: UnsafeBufferPointer(start: storage, count: count), as: UTF8.self)
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { grow(toHold: count + bytes.count) }
        (storage + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ array: [UInt8]) {
        array.withUnsafeBufferPointer { append($0) }
    }

    mutating func append(_ array: [UInt8], from start: Int, to end: Int) {
        array.withUnsafeBufferPointer { append(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    mutating func append(byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        storage[count] = byte
        count += 1
    }

    private mutating func grow(toHold required: Int) {
        let newCapacity = max(required, capacity * 2)
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.update(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
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
        var string = string
        string.withUTF8 { append($0) }
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
                append(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                entity.withUTF8Buffer { append($0) }
                runStart = index + 1
            }
            append(UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
    }

    private static func entity(for byte: UInt8) -> StaticString? {
        switch byte {
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case UInt8(ascii: "\""): "&quot;"
        case UInt8(ascii: "'"): "&#39;"
        default: nil
        }
    }

    private mutating func appendDecimal(_ number: Int) {
        if number < 0 { append(byte: UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            append(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}
