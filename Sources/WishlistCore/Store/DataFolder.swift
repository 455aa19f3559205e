import Foundation

/// A data folder's temporary entries, each named by a prefix here: the staging folders of
/// imports and exports and the uploads being received (the photo library sweeps its own partial
/// files). A process killed mid-write leaves them behind; `sweepTemporaries` removes them, which
/// only the holder of the data-folder lock may do, before it serves.
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

    /// Removes every temporary entry of the data folder holding `databasePath` (and the photo
    /// folder's retired ones); returns their names.
    @discardableResult
    public static func sweepTemporaries(besideDatabaseAt databasePath: String) -> [String] {
        let prefixes = [importStagingPrefix, exportStagingPrefix, uploadsFolderName] + retiredPrefixes
        let isTemporary = { (name: String) in prefixes.contains { name.hasPrefix($0) } }
        return remove(in: URL(fileURLWithPath: databasePath).deletingLastPathComponent(), where: isTemporary)
            + remove(in: WishlistStore.imagesDirectory(forDatabaseAt: databasePath), where: isTemporary)
    }

    private static func remove(in folder: URL, where isTemporary: (String) -> Bool) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter(isTemporary).filter { (try? FileManager.default.removeItem(at: folder.appendingPathComponent($0))) != nil }
    }
}
