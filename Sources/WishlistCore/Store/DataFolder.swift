import Foundation
import Glibc

/// A data folder's temporary entries, each named by a prefix here: the staging folders of
/// imports and exports and the uploads being received (the photo library sweeps its own partial
/// files). A process killed mid-write leaves them behind; `sweepTemporaries` removes them, which
/// only the holder of the data-folder lock may do, before it serves. Staging folders carry
/// their process's id (`stagingName`): those of a process still running (a `wishlist import`
/// beside a starting server) are left alone.
public enum DataFolder {
    static let importStagingPrefix = ".import-"
    static let exportStagingPrefix = ".export-"
    /// Request bodies being received: the files of multipart forms and the API's photo bodies,
    /// on the photos' disk.
    static let uploadsFolderName = ".uploads"
    /// What versions that staged downloads left.
    static let retiredPrefixes = [".downloads", ".api-upload-"]

    /// The folder for uploads being received, created if needed.
    public static func uploads(besideDatabaseAt databasePath: String) throws -> URL {
        let folder = URL(fileURLWithPath: databasePath).deletingLastPathComponent().appendingPathComponent(uploadsFolderName, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The bytes free for this process on the disk holding `folder` (nil: it cannot tell).
    public static func freeBytes(at folder: URL) -> Int64? {
        var status = statvfs()
        guard statvfs(folder.path, &status) == 0 else { return nil }
        return Int64(status.f_bavail) * Int64(status.f_frsize)
    }

    /// A new staging folder's name for this process: `prefix`, the process id, a unique part.
    static func stagingName(_ prefix: String) -> String {
        "\(prefix)\(getpid())-\(UUID().uuidString)"
    }

    /// Whether `name` is a staging folder (`stagingName`) of a process that is still running.
    private static func isStaging(_ name: String, ofLiveProcessAfter prefix: String) -> Bool {
        let rest = name.dropFirst(prefix.count)
        guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// Removes every temporary entry of the data folder holding `databasePath` (and the photo
    /// folder's retired ones) but the staging folders of processes still running; returns their names.
    @discardableResult
    public static func sweepTemporaries(besideDatabaseAt databasePath: String) -> [String] {
        let prefixes = [importStagingPrefix, exportStagingPrefix, uploadsFolderName] + retiredPrefixes
        let isTemporary = { (name: String) in
            prefixes.contains { name.hasPrefix($0) && !isStaging(name, ofLiveProcessAfter: $0) }
        }
        return remove(in: URL(fileURLWithPath: databasePath).deletingLastPathComponent(), where: isTemporary)
            + remove(in: WishlistStore.imagesDirectory(forDatabaseAt: databasePath), where: isTemporary)
    }

    private static func remove(in folder: URL, where isTemporary: (String) -> Bool) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter(isTemporary).filter { (try? FileManager.default.removeItem(at: folder.appendingPathComponent($0))) != nil }
    }
}
