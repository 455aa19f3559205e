import Foundation

/// Pictures derived from the files of an `ImageStore` (display sizes), in a folder of their own
/// and named `<original's digest>-<long side>.<extension>`: a rendition is found from its
/// original alone, with no record to keep, and may be deleted and made again at any time.
public struct RenditionStore: Sendable {
    public let directory: URL

    public init(directory: URL) throws {
        self.directory = try StoreDirectory.create(directory)
    }

    /// The name of the rendition of `original` (a stored-file name) fitted within `maxSide`.
    public static func name(of original: String, maxSide: Int, format: ImageFormat) throws -> String {
        guard ImageStore.isValidName(original) else { throw ImagingError.invalidStoredName(original) }
        return "\(original.prefix { $0 != "." })-\(maxSide).\(format.fileExtension)"
    }

    public func url(of original: String, maxSide: Int, format: ImageFormat) throws -> URL {
        directory.appendingPathComponent(try Self.name(of: original, maxSide: maxSide, format: format), isDirectory: false)
    }

    /// Writes the rendition through a temporary file and an atomic rename, so a reader never
    /// sees half a picture; storing one that exists replaces it with the same content.
    public func store(_ image: EncodedImage, of original: String, maxSide: Int) throws {
        let destination = try url(of: original, maxSide: maxSide, format: image.format)
        let temporary = try TemporaryFile(in: directory, prefix: ImageStore.temporaryPrefix)
        do {
            try image.bytes.withUnsafeBytes { try temporary.write($0) }
            try temporary.synchronize()
            try temporary.move(to: destination.path)
            try StoreDirectory.synchronize(directory)
        } catch {
            temporary.discard()
            throw error
        }
    }

    public func remove(renditionOf original: String, maxSide: Int, format: ImageFormat) throws {
        try StoreDirectory.delete(try url(of: original, maxSide: maxSide, format: format))
    }

    /// Deletes every rendition not named in `wanted` and every leftover temporary file; returns
    /// the deleted names, sorted. Other files are left alone.
    @discardableResult
    public func sweep(keeping wanted: Set<String>) throws -> [String] {
        try StoreDirectory.deleteEntries(of: directory) { name in
            name.hasPrefix(ImageStore.temporaryPrefix) || (Self.isRenditionName(name) && !wanted.contains(name))
        }
    }

    /// Whether `name` has the form `<64 lowercase hex digits>-<digits>.<extension of an ImageFormat>`.
    static func isRenditionName(_ name: String) -> Bool {
        guard let dash = name.firstIndex(of: "-"), let dot = name.lastIndex(of: "."), dash < dot else { return false }
        let side = name[name.index(after: dash)..<dot]
        guard !side.isEmpty, side.allSatisfy({ ("0"..."9").contains($0) }) else { return false }
        return ImageStore.isValidName(String(name[..<dash] + name[dot...]))
    }
}
