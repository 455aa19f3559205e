import Foundation
import Glibc

/// One `wishlist` at a time changes a data folder's files: a second `serve` swept the first one's
/// fresh uploads away as unreferenced photos. An exclusive `flock` on `wishlist.lock` in the folder,
/// held until the process ends (the kernel drops it however the process ends, so a crash leaves
/// no stale lock). The file names its holder for the refusal's message.
final class DataFolderLock {
    static let fileName = "wishlist.lock"

    /// Another process holds the lock.
    struct Held: Error, CustomStringConvertible {
        let folder: String
        /// What the lock file says: "pid 1234 (wishlist serve)", or nil when it could not be read.
        let holder: String?

        var description: String {
            "Another wishlist (\(holder ?? "its process id is unknown")) is using the data folder \(folder). Stop it first, or pass another --data-dir."
        }
    }

    private var descriptor: Int32

    /// Creates the folder if needed and takes its lock, or throws `Held`.
    init(folder: String, command: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = URL(fileURLWithPath: folder).appendingPathComponent(Self.fileName).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = try? String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            close(descriptor)
            throw Held(folder: folder, holder: holder?.isEmpty == false ? holder : nil)
        }
        self.descriptor = descriptor
        let text = "pid \(getpid()) (wishlist \(command))\n"
        ftruncate(descriptor, 0)
        _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    }

    /// Takes the lock if it is free; nil while another process holds it.
    static func ifFree(folder: String, command: String) throws -> DataFolderLock? {
        do {
            return try DataFolderLock(folder: folder, command: command)
        } catch is Held {
            return nil
        }
    }

    /// Gives the lock up; callers say where, so its lifetime is not left to the optimizer.
    func release() {
        guard descriptor >= 0 else { return }
        ftruncate(descriptor, 0)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
