import CVips

/// Process-wide libvips setup and per-thread cleanup.
///
/// Every entry point of this module calls `initialize()` itself, so calling it from the app is
/// optional (doing it at startup moves the one-time cost out of the first upload).
public enum Imaging {
    /// Worker threads libvips may use for one operation. Two matches this machine's cores; a
    /// second upload at the same time runs on its own request thread anyway.
    static let concurrency: Int32 = 2

    /// Starts libvips once: untrusted loaders (SVG, PDF, ImageMagick, raw…) blocked, and the
    /// operation cache kept small — each upload is processed once, so caching buys little, and
    /// a cached load of a reused temporary file name could return an older picture.
    public static func initialize() {
        _ = vipsStarted
    }

    /// Frees the per-thread buffers libvips keeps on the calling thread.
    ///
    /// Every public operation of this module already calls it before returning (measured cost:
    /// a few microseconds; see Benchmarks/thumbnail/README.md), so threads of any pool — a
    /// libmicrohttpd worker, a Dispatch queue — never leak. Call it yourself only after using
    /// libvips directly on a thread that is about to exit.
    public static func releaseThreadResources() {
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
