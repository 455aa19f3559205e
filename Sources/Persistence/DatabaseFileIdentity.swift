import Glibc

/// The database's path no longer names the file this process opened: its connections would go
/// on writing into a file nobody opens again (answered "saved", lost at the next start).
public enum DatabaseFileProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case deleted(path: String)
    /// Another file (a copy, a restored file put in place by hand) now has the name.
    case replaced(path: String)

    public var path: String {
        switch self {
        case .deleted(let path), .replaced(let path): path
        }
    }

    public var description: String {
        switch self {
        case .deleted(let path): "the database file \(path) was deleted or moved while it was open"
        case .replaced(let path): "the database file \(path) was replaced by another file while it was open"
        }
    }
}

/// Which file a path named when it was opened (device and inode), to tell later whether it still does.
struct DatabaseFileIdentity: Sendable {
    private let path: String
    private let device: UInt64
    private let inode: UInt64

    /// nil when the path names no file (nothing to compare with later).
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        (self.path, device, inode) = (path, UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// nil while the path names the opened file (or cannot be checked for another reason than its absence).
    func problem() -> DatabaseFileProblem? {
        var info = stat()
        guard stat(path, &info) == 0 else { return errno == ENOENT ? .deleted(path: path) : nil }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode ? nil : .replaced(path: path)
    }
}
