import CVips

public struct ImageLimits: Sendable, Equatable {
    /// The largest width × height accepted, checked from the header before any decoding.
    public var maxPixels: Int
    /// The most memory one decode may need, estimated from the header (`DecodeCost`): above it
    /// an image is refused unread. 256 MB lets through any streamed photo within `maxPixels`
    /// and progressive JPEGs to ~40 megapixels.
    public var maxDecodeBytes: Int

    public static let defaultMaxDecodeBytes = 256 * 1024 * 1024

    public init(maxPixels: Int = 100_000_000, maxDecodeBytes: Int = defaultMaxDecodeBytes) {
        self.maxPixels = maxPixels
        self.maxDecodeBytes = maxDecodeBytes
    }

    /// Decodes over a quarter of the budget go through the `DecodeGate` one at a time.
    func isHeavy(_ image: ImageInfo) -> Bool {
        image.decodeBytes > maxDecodeBytes / 4
    }
}

/// What an image file is, read from its header only. Only `Thumbnailer.inspect` makes one, so
/// holding one means the file passed the type and pixel checks: resizing takes it, not a path.
public struct ImageInfo: Sendable, Equatable {
    public let path: String
    public let format: ImageFormat
    /// Pixel dimensions as encoded in the file.
    public let width: Int
    public let height: Int
    /// EXIF orientation, 1 (upright) to 8.
    public let orientation: Int
    /// The memory decoding it is estimated to hold at once (`DecodeCost`).
    public let decodeBytes: Int
    /// When it was taken by the camera's clock ("2019-06-01T12:00:00"), if the file says.
    public var dateTaken: String? = nil

    /// Dimensions as the picture is meant to be seen: orientations 5–8 turn it a quarter.
    public var uprightWidth: Int { orientation >= 5 ? height : width }
    public var uprightHeight: Int { orientation >= 5 ? width : height }
}

/// Encoded image bytes ready to store or serve.
public struct EncodedImage: Sendable, Equatable {
    public let bytes: [UInt8]
    public let format: ImageFormat
    public let width: Int
    public let height: Int
}

/// Formats this module writes.
public enum OutputFormat: Sendable {
    case jpeg, webp

    public var imageFormat: ImageFormat { self == .jpeg ? .jpeg : .webp }
}

/// Checks and resizes uploaded images with libvips: type from the bytes, pixel limit from the
/// header, memory needed for decoding estimated from the header too and heavy decodes run one
/// at a time, shrink-on-load, EXIF auto-rotation, all metadata removed, damaged files refused.
public struct Thumbnailer: Sendable {
    public let limits: ImageLimits
    let gate: DecodeGate

    public init(limits: ImageLimits = ImageLimits(), gate: DecodeGate = .shared) {
        self.limits = limits
        self.gate = gate
        Imaging.initialize()
    }

    /// Detects the type and reads the header without decoding pixels. Throws
    /// `.unsupportedType`, `.tooManyPixels`, `.needsTooMuchMemory` or `.corrupt`.
    public func inspect(path: String) throws -> ImageInfo {
        defer { Imaging.releaseThreadResources() }
        let mediaType = try MediaType.detect(path: path)
        guard let format = ImageFormat(mediaType: mediaType) else { throw ImagingError.unsupportedType(mediaType) }
        let header = try VipsImageRef.open(header: path)
        guard header.width * header.height <= limits.maxPixels else {
            throw ImagingError.tooManyPixels(width: header.width, height: header.height, limit: limits.maxPixels)
        }
        let decodeBytes = DecodeCost.estimatedBytes(of: header, format: format)
        guard decodeBytes <= limits.maxDecodeBytes else {
            throw ImagingError.needsTooMuchMemory(bytes: decodeBytes, limit: limits.maxDecodeBytes)
        }
        return ImageInfo(path: path, format: format, width: header.width, height: header.height,
                         orientation: header.orientation, decodeBytes: decodeBytes, dateTaken: header.dateTaken)
    }

    /// A small upright picture whose longer side is at most `maxSide` (never enlarged).
    public func makeThumbnail(of image: ImageInfo, maxSide: Int = 480, format: OutputFormat = .jpeg, quality: Int = 80) throws -> EncodedImage {
        precondition(maxSide > 0 && (1...100).contains(quality), "maxSide must be positive and quality 1–100")
        defer { Imaging.releaseThreadResources() }
        return try decoding(image) {
            try encode(try Self.decodedUpright(image, maxSide: maxSide), as: format, quality: Int32(quality))
        }
    }

    /// Pictures for display, one per entry of `maxSides` (longest first), each fitted within
    /// it: upright, in sRGB, without metadata. The file is decoded once, for the largest; the
    /// others are resized from that in memory.
    public func makeRenditions(of image: ImageInfo, maxSides: [Int], format: OutputFormat, quality: Int) throws -> [EncodedImage] {
        precondition(!maxSides.isEmpty && maxSides.allSatisfy { $0 > 0 } && (1...100).contains(quality),
                     "renditions need positive sides and quality 1–100")
        defer { Imaging.releaseThreadResources() }
        let sides = maxSides.sorted(by: >)
        return try decoding(image) {
            let largest = try Self.decodedUpright(image, maxSide: sides[0])
            return try sides.map { side in
                let fitted = side == sides[0] ? largest : try VipsImageRef.make {
                    shim_vips_thumbnail_image(largest.pointer, $0, Int32(side), Int32(side))
                }
                return try encode(fitted, as: format, quality: Int32(quality))
            }
        }
    }

    /// The picture shrunk on load to fit `maxSide`, upright, in sRGB, without metadata, decoded
    /// into memory. Decoding here rather than inside a save matters: libvips 8.14's WebP save
    /// keeps the whole decode buffer of a source that fails mid-save (a cut-off interlaced PNG
    /// leaked ~190 MB an upload); a failed copy to memory frees it.
    private static func decodedUpright(_ image: ImageInfo, maxSide: Int) throws -> VipsImageRef {
        // fail_on=error: a truncated or damaged file is refused instead of coming out with grey areas.
        let streamed = try VipsImageRef.make {
            shim_vips_thumbnail(image.path, $0, Int32(maxSide), Int32(maxSide), VIPS_SIZE_DOWN, VIPS_FAIL_ON_ERROR)
        }.convertedToSRGB().withoutMetadata()
        guard let decoded = vips_image_copy_memory(streamed.pointer) else {
            throw ImagingError.processingFailed(VipsError.takeMessage())
        }
        return VipsImageRef(owning: decoded)
    }

    /// Runs a pipeline that decodes `image`, through the gate when it is heavy. Processing pixels
    /// libvips accepted does not fail by itself, so a failure here means a damaged file.
    private func decoding<Value>(_ image: ImageInfo, _ work: () throws -> Value) throws -> Value {
        do {
            return try gate.run(heavy: limits.isHeavy(image), work)
        } catch ImagingError.processingFailed(let detail) {
            throw ImagingError.corrupt(detail)
        }
    }

    private func encode(_ image: VipsImageRef, as format: OutputFormat, quality: Int32) throws -> EncodedImage {
        let bytes: [UInt8]
        switch format {
        case .jpeg:
            let opaque = image.hasAlpha ? try VipsImageRef.make { shim_vips_flatten_on_white(image.pointer, $0) } : image
            bytes = try opaque.encode { shim_vips_jpegsave_buffer($0, $1, $2, quality) }
        case .webp:
            bytes = try WebPMux.removingMetadata(from: try image.encode { shim_vips_webpsave_buffer($0, $1, $2, quality) })
        }
        return EncodedImage(bytes: bytes, format: format.imageFormat, width: image.width, height: image.height)
    }
}
