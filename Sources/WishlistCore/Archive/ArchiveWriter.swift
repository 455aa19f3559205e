import Foundation

/// Writes an archive trip by trip, so that a million activities never sit in memory as one
/// string. The file appears at its final path only when complete (temporary file, fsync, rename).
final class ArchiveWriter {
    private let destination: URL
    private let temporary: URL
    private let handle: FileHandle
    private let encoder = JSONEncoder.archive
    private var buffer = Data()
    private var isFirstTrip = true
    private var isFinished = false

    /// Starts the file with everything but the trips.
    init(url: URL, exportedAt: Date, preferences: ArchivePreferences, goals: [ArchiveGoal]) throws {
        destination = url
        temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        handle = try FileHandle(forWritingTo: temporary)
        // With sorted keys "trips" is the last key: the header is the whole document with no
        // trips, cut before the closing "]}" that the trips then continue.
        let header = try encoder.encode(Archive(exportedAt: exportedAt, preferences: preferences, goals: goals, trips: []))
        precondition(header.suffix(3) == Data("[]}".utf8), "the trips must be the last key of the archive")
        buffer.append(header.dropLast(2))
    }

    deinit {
        if !isFinished {
            try? handle.close()
            try? FileManager.default.removeItem(at: temporary)
        }
    }

    /// One trip per line keeps large archives readable with line-based tools.
    func write(_ trip: ArchiveTrip) throws {
        buffer.append(contentsOf: Array((isFirstTrip ? "\n" : ",\n").utf8))
        isFirstTrip = false
        buffer.append(try encoder.encode(trip))
        if buffer.count >= 1 << 20 { try flush() }
    }

    func finish() throws {
        buffer.append(contentsOf: Array("\n]}\n".utf8))
        try flush()
        try handle.synchronize()
        try handle.close()
        guard rename(temporary.path, destination.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path,
                                                          NSLocalizedDescriptionKey: String(cString: strerror(errno))])
        }
        isFinished = true
    }

    private func flush() throws {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
