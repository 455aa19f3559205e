import CVips

/// Process-wide libvips setup and per-thread cleanup.
///
/// Every entry point of this module calls `initialize()` itself, so calling it from the app is
/// optional (doing it at startup moves the one-time cost out of the first upload).
public enum Imaging {
    /// Worker threads libvips may use for one operation. One: shrink-on-load JPEG decoding is
    /// mostly serial, a second thread did not make a thumbnail faster on two cores (and was
    /// slower under load, see Benchmarks/thumbnail/README.md), and simultaneous uploads already
    /// run on separate request threads.
    static let concurrency: Int32 = 1

    /// Starts libvips once: untrusted loaders (SVG, PDF, ImageMagick, raw…) blocked, and the
    /// operation cache turned off. Each upload is processed once, so caching buys nothing, and
    /// libvips 8.14 caches loads by file name: a temporary file name reused for a new upload
    /// returned the previous picture (checked on this machine).
    public static func initialize() {
        _ = vipsStarted
    }

    /// Frees the per-thread buffers libvips keeps on the calling thread, and empties libvips'
    /// error buffer: operations that succeed with warnings (a JPEG with damaged scan data,
    /// accepted under `fail_on=error`) append to it and nothing else would ever clear it. The
    /// buffer is process-wide, so a failure on another thread may lose its detail text, never
    /// its error.
    ///
    /// Every public operation of this module already calls it before returning (no measurable
    /// cost next to a thumbnail; see Benchmarks/thumbnail/README.md), so threads of any pool — a
    /// libmicrohttpd worker, a Dispatch queue — never leak and the app needs no hook. Call it
    /// yourself only after using libvips directly on a thread that is about to exit.
    public static func releaseThreadResources() {
        vips_error_clear()
        vips_thread_shutdown()
    }
}

private let vipsStarted: Void = {
    guard vips_init("imaging") == 0 else {
        fatalError("libvips failed to start: \(VipsError.takeMessage())")
    }
    vips_block_untrusted_set(1)
    vips_cache_set_max(0)
    vips_cache_set_max_mem(0)
    vips_concurrency_set(Imaging.concurrency)
}()
