import Foundation

/// Polls `condition` until it holds, for up to `seconds`; false if it never did. For a test that
/// waits on a state the code under test exposes, never on time itself.
public func waitUntil(seconds: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while try !condition() {
        guard Date() < deadline else { return false }
        usleep(2_000)
    }
    return true
}
