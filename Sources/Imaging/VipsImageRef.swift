import CVips

/// Owns one reference to a libvips image and releases it when dropped.
/// Images are immutable once built: every operation returns a new one.
final class VipsImageRef {
    let pointer: UnsafeMutablePointer<VipsImage>

    init(owning pointer: UnsafeMutablePointer<VipsImage>) {
        self.pointer = pointer
    }

    deinit {
        g_object_unref(pointer)
    }

    /// Runs a libvips call that fills an output image; failure throws `.processingFailed`.
    static func make(_ call: (UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32) throws -> VipsImageRef {
        var output: UnsafeMutablePointer<VipsImage>?
        guard call(&output) == 0, let output else { throw ImagingError.processingFailed(VipsError.takeMessage()) }
        return VipsImageRef(owning: output)
    }

    static func open(header path: String) throws -> VipsImageRef {
        guard let image = shim_vips_open_header(path) else { throw ImagingError.corrupt(VipsError.takeMessage()) }
        return VipsImageRef(owning: image)
    }

    var width: Int { Int(vips_image_get_width(pointer)) }
    var height: Int { Int(vips_image_get_height(pointer)) }
    var bands: Int { Int(vips_image_get_bands(pointer)) }
    /// The EXIF orientation (1–8), 1 when absent.
    var orientation: Int { Int(vips_image_get_orientation(pointer)) }
    /// Interlaced PNG or progressive JPEG: the loaders set `interlaced` for both.
    var isInterlaced: Bool { integerField("interlaced") == 1 }
    /// Frames of an animation (GIF, WebP, HEIF sequence), 1 for a still picture.
    var pageCount: Int { Int(vips_image_get_n_pages(pointer)) }

    /// When the picture was taken, as the camera's clock said (EXIF DateTimeOriginal, no zone):
    /// "2019-06-01T12:00:00", or nil when absent or not a date.
    var dateTaken: String? {
        var value: UnsafePointer<CChar>?
        let name = "exif-ifd2-DateTimeOriginal"
        guard vips_image_get_typeof(pointer, name) != 0, vips_image_get_string(pointer, name, &value) == 0,
              let value else { return nil }
        return CameraDate.fromEXIF(String(cString: value))
    }

    private func integerField(_ name: String) -> Int32? {
        var value: Int32 = 0
        guard vips_image_get_typeof(pointer, name) != 0, vips_image_get_int(pointer, name, &value) == 0 else { return nil }
        return value
    }

    var fieldNames: [String] {
        guard let fields = vips_image_get_fields(pointer) else { return [] }
        defer { g_strfreev(fields) }
        var names: [String] = []
        var index = 0
        while let field = fields[index] {
            names.append(String(cString: field))
            index += 1
        }
        return names
    }

    /// The picture in sRGB when it carries a colour profile (Display P3 from phones, Adobe RGB,
    /// CMYK), so removing the profile afterwards does not change its colours. vips_thumbnail
    /// keeps the source's colour space. A profile libvips cannot use leaves the pixels as they are.
    func convertedToSRGB() -> VipsImageRef {
        guard vips_image_get_typeof(pointer, "icc-profile-data") != 0 else { return self }
        guard let converted = try? VipsImageRef.make({ shim_vips_icc_to_srgb(pointer, $0) }) else { return self }
        return converted
    }

    /// A copy without metadata (EXIF with GPS, XMP, IPTC, ICC, comments, orientation).
    /// Removing the fields rather than relying on the savers' `strip` is what keeps WebP clean:
    /// webpsave ignores `strip` in libvips 8.14.
    func withoutMetadata() throws -> VipsImageRef {
        let copy = try VipsImageRef.make { shim_vips_copy(pointer, $0) }
        for name in copy.fieldNames {
            vips_image_remove(copy.pointer, name)  // fixed header fields (width, bands…) are not removable and stay
        }
        return copy
    }

    var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }

    /// Encodes with one of the `shim_vips_*save_buffer` calls and copies the result out.
    func encode(
        _ save: (UnsafeMutablePointer<VipsImage>, UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32
    ) throws -> [UInt8] {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard save(pointer, &buffer, &length) == 0, let buffer else {
            throw ImagingError.processingFailed(VipsError.takeMessage())
        }
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }
}

enum VipsError {
    /// The accumulated libvips error text, cleared so the next failure starts fresh.
    static func takeMessage() -> String {
        let message = String(cString: vips_error_buffer())
        vips_error_clear()
        let trimmed = message.split(separator: "\n").first.map(String.init) ?? ""
        return trimmed.isEmpty ? "unknown libvips error" : trimmed
    }
}
