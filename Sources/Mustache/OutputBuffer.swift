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
        // One memcpy; `Array(UnsafeBufferPointer)` copied element by element.
        Array(unsafeUninitializedCapacity: count) { buffer, initializedCount in
            buffer.baseAddress!.update(from: storage, count: count)
            initializedCount = count
        }
    }

    var string: String {
        String(decoding: UnsafeBufferPointer(start: storage, count: count), as: UTF8.self)
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        append(source, count: bytes.count)
    }

    @inline(__always)
    mutating func append(_ source: UnsafePointer<UInt8>, count added: Int) {
        reserve(added)
        (storage + count).update(from: source, count: added)
        count += added
    }

    mutating func append(_ array: [UInt8]) {
        array.withUnsafeBufferPointer { append($0) }
    }

    mutating func append(byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    @inline(__always)
    private mutating func reserve(_ added: Int) {
        if count + added > capacity { grow(toHold: count + added) }
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
        Self.withUTF8(of: string) { append($0) }
    }

    /// The string's UTF-8 read in place, without the copy (and retain) that `String.withUTF8` needs.
    @inline(__always)
    private static func withUTF8(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if string.utf8.withContiguousStorageIfAvailable(body) != nil { return }
        var copy = string
        copy.withUTF8(body)
    }

    /// Copies untouched runs in one go and replaces only the five characters significant in HTML.
    /// (Bytes of multi-byte UTF-8 characters are all above 127: they are never taken for one.)
    private mutating func appendEscaped(_ string: String) {
        Self.withUTF8(of: string) { utf8 in
            guard let base = utf8.baseAddress else { return }
            var runStart = 0
            var index = 0
            while index < utf8.count {
                // Most text has nothing to escape: skip it eight bytes at a time.
                if index + 8 <= utf8.count,
                   !Self.containsEscaped(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                    index += 8
                    continue
                }
                let wordEnd = min(index + 8, utf8.count)
                while index < wordEnd {
                    if Self.isEscaped(base[index]) {
                        append(base + runStart, count: index - runStart)
                        Self.entity(for: base[index]).withUTF8Buffer { append($0) }
                        runStart = index + 1
                    }
                    index += 1
                }
            }
            append(base + runStart, count: utf8.count - runStart)
        }
    }

    /// One shift and test per byte: bit n of the mask is set for each escaped byte n (all below 64).
    @inline(__always)
    private static func isEscaped(_ byte: UInt8) -> Bool {
        let mask: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E  // " & ' < >
        return byte < 64 && mask >> byte & 1 != 0
    }

    /// Whether any of the eight bytes of `word` is one that `isEscaped` (SWAR: a byte equal to `c`
    /// is a zero byte of `word ^ c…c`, and `(x - 0x01…01) & ~x & 0x80…80` is non-zero iff x has one).
    @inline(__always)
    static func containsEscaped(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        func hasZeroByte(_ x: UInt64) -> Bool { (x &- ones) & ~x & (ones &* 0x80) != 0 }
        return hasZeroByte(word ^ ones &* 0x22) || hasZeroByte(word ^ ones &* 0x26) || hasZeroByte(word ^ ones &* 0x27)
            || hasZeroByte(word ^ ones &* 0x3C) || hasZeroByte(word ^ ones &* 0x3E)
    }

    private static func entity(for byte: UInt8) -> StaticString {
        switch byte {
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case UInt8(ascii: "\""): "&quot;"
        default: "&#39;"
        }
    }

    /// Writes the digits straight into the buffer: no `String` per number.
    private mutating func appendDecimal(_ number: Int) {
        if number < 0 { append(byte: UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digitCount = 1
        var power: UInt = 10
        while digitCount < 20 && magnitude >= power {  // UInt.max has 20 digits; 10^20 would overflow
            digitCount += 1
            power &*= 10
        }
        reserve(digitCount)
        count += digitCount
        var position = count
        repeat {
            position -= 1
            storage[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
    }
}
