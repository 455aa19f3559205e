/// When a photo was taken by the camera's clock, written "2019-06-01T12:00:00" (no time zone:
/// EXIF has none).
public enum CameraDate {
    private static let iso = Array("dddd-dd-ddTdd:dd:dd".utf8)
    private static let exif = Array("dddd:dd:dd dd:dd:dd".utf8)

    /// Whether `text` is a date written as this type writes them.
    public static func isValid(_ text: String) -> Bool {
        matches(Array(text.utf8), iso)
    }

    /// The date of an EXIF DateTimeOriginal ("2019:06:01 12:00:00", libvips may add more after
    /// it); nil for anything else, such as the blanks of a camera whose clock was never set.
    static func fromEXIF(_ text: String) -> String? {
        let prefix = Array(text.utf8.prefix(exif.count))
        guard matches(prefix, exif) else { return nil }
        return String(decoding: zip(prefix, iso).map { $1 == digit ? $0 : $1 }, as: UTF8.self)
    }

    private static let digit = UInt8(ascii: "d")

    private static func matches(_ bytes: [UInt8], _ pattern: [UInt8]) -> Bool {
        bytes.count == pattern.count && zip(bytes, pattern).allSatisfy { $1 == digit ? (48...57).contains($0) : $0 == $1 }
    }
}
