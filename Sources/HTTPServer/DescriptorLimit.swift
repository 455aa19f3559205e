import Glibc

/// The process's limit on open file descriptors, which every connection spends one of.
enum DescriptorLimit {
    /// Raises the soft limit to the hard one (Debian starts at 1,024, far below what a flood
    /// of idle connections needs) and returns the soft limit now in force.
    static func raiseToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(min(limit.rlim_cur, rlim_t(Int32.max)))  // "unlimited" is the largest value
    }

    /// The most connections to accept under `limit` descriptors, leaving room for what serving
    /// them opens (files, SQLite, pipes, libdispatch's timers): running out of those failed
    /// requests, or trapped inside libraries that assume a descriptor is always available.
    static func connectionLimit(configured: Int, descriptorLimit: Int) -> Int {
        let reserve = 64 + descriptorLimit / 8
        return max(1, min(configured, descriptorLimit - reserve))
    }
}
