extension Dictionary where Key == String, Value == MustacheValue {
    /// Objects up to this size are searched by comparing keys rather than by hashing.
    static let scannedObjectLimit = 8

    /// The value for `key` (borrowed in place: no copy to retain), found without hashing in a small object.
    ///
    /// Why: a page looks up a name at almost every tag, mostly in objects of a few keys, and
    /// hashing a `String` (SipHash) costs several times more than comparing a few short keys,
    /// which for small strings is a compare of two machine words.
    @inline(__always)
    func value(forKey key: UnsafePointer<String>) -> MustacheValue? {
        guard count <= Self.scannedObjectLimit else { return self[key.pointee] }
        let keyLength = key.pointee.utf8.count
        var index = startIndex
        while index != endIndex {
            // Lengths first: O(1) for native strings, and most keys differ in length.
            let candidate = keys[index]
            if candidate.utf8.count == keyLength && candidate == key.pointee { return values[index] }
            formIndex(after: &index)
        }
        return nil
    }
}
