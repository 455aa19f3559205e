import CVips

/// Swift spellings of the libvips operations this module builds pictures with.
extension VipsImageRef {
    static func coordinates(width: Int, height: Int) throws -> VipsImageRef {
        try make { shim_vips_xyz($0, Int32(width), Int32(height)) }
    }

    static func gaussianNoise(width: Int, height: Int, sigma: Double) throws -> VipsImageRef {
        try make { shim_vips_gaussnoise($0, Int32(width), Int32(height), sigma) }
    }

    /// An image of `width × height` pixels of `bands` bands from raw samples, row by row.
    static func fromSamples<Sample>(_ samples: [Sample], width: Int, height: Int, bands: Int, format: VipsBandFormat) throws -> VipsImageRef {
        precondition(samples.count == width * height * bands, "sample count does not match the dimensions")
        let image = samples.withUnsafeBytes {
            vips_image_new_from_memory_copy($0.baseAddress, $0.count, Int32(width), Int32(height), Int32(bands), format)
        }
        guard let image else { throw ImagingError.processingFailed(VipsError.takeMessage()) }
        return VipsImageRef(owning: image)
    }

    /// An image of this one's size in which every pixel is `values`.
    func constant(_ values: [Double]) throws -> VipsImageRef {
        guard let image = vips_image_new_from_image(pointer, values, Int32(values.count)) else {
            throw ImagingError.processingFailed(VipsError.takeMessage())
        }
        return VipsImageRef(owning: image)
    }

    /// `pixel × a + b`, band by band (one value applies to every band).
    func linear(_ a: [Double], _ b: [Double]) throws -> VipsImageRef {
        precondition(a.count == b.count, "linear needs as many multipliers as offsets")
        return try VipsImageRef.make { shim_vips_linear(pointer, $0, a, b, Int32(a.count)) }
    }

    func multiply(_ other: VipsImageRef) throws -> VipsImageRef {
        try VipsImageRef.make { shim_vips_multiply(pointer, other.pointer, $0) }
    }

    func add(_ other: VipsImageRef) throws -> VipsImageRef {
        try VipsImageRef.make { shim_vips_add(pointer, other.pointer, $0) }
    }

    /// One output band: the sum of the input bands weighted by `weights`.
    func weightedSum(_ weights: [Double]) throws -> VipsImageRef {
        guard let matrix = vips_image_new_matrix_from_array(Int32(weights.count), 1, weights, Int32(weights.count)) else {
            throw ImagingError.processingFailed(VipsError.takeMessage())
        }
        let matrixRef = VipsImageRef(owning: matrix)
        return try VipsImageRef.make { shim_vips_recomb(pointer, $0, matrixRef.pointer) }
    }

    /// Converts samples, clipping values outside the target range.
    func cast(_ format: VipsBandFormat) throws -> VipsImageRef {
        try VipsImageRef.make { shim_vips_cast(pointer, $0, format) }
    }

    func mapThrough(lookupTable: VipsImageRef) throws -> VipsImageRef {
        try VipsImageRef.make { shim_vips_maplut(pointer, $0, lookupTable.pointer) }
    }

    /// Enlarged `factor` times as smoothly as linear interpolation, then cropped to
    /// `width × height`. Repeating pixels and blurring the blocks with a triangle kernel is the
    /// same smoothing as vips_resize at a fraction of its cost (Benchmarks/README.md).
    func enlarged(by factor: Int, croppedTo width: Int, _ height: Int) throws -> VipsImageRef {
        let triangle = (1...factor).map(Double.init) + (1..<factor).reversed().map(Double.init)
        guard let mask = vips_image_new_matrix_from_array(Int32(triangle.count), 1, triangle, Int32(triangle.count)) else {
            throw ImagingError.processingFailed(VipsError.takeMessage())
        }
        let maskRef = VipsImageRef(owning: mask)
        vips_image_set_double(mask, "scale", Double(factor * factor))  // the weights' sum keeps brightness
        let blocks = try VipsImageRef.make { shim_vips_zoom(pointer, $0, Int32(factor)) }
        let smooth = try VipsImageRef.make { shim_vips_convsep_integer(blocks.pointer, $0, maskRef.pointer) }
        return try VipsImageRef.make { shim_vips_crop(smooth.pointer, $0, 0, 0, Int32(width), Int32(height)) }
    }

    func replicate(across: Int, down: Int) throws -> VipsImageRef {
        try VipsImageRef.make { shim_vips_replicate(pointer, $0, Int32(across), Int32(down)) }
    }

    /// Where this 0–255 mask is 255 shows `top`, where 0 keeps `bottom`, in between mixes.
    func blend(_ top: VipsImageRef, over bottom: VipsImageRef) throws -> VipsImageRef {
        try VipsImageRef.make { shim_vips_blend(pointer, top.pointer, bottom.pointer, $0) }
    }
}
