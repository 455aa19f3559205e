/// A C pointer or non-Sendable reference kept in Sendable state. Safe because every use is
/// under the lock of the state holding it, or within the C call that lent it.
struct UncheckedHandle<Pointer>: @unchecked Sendable {
    let pointer: Pointer
}
