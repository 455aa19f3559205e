import Foundation
import Glibc
import HTTPServer
import Testing

/// The system's own reports of a full disk are answered 507 wherever they come from: real
/// failed writes to `/dev/full`, which fails every write with ENOSPC.
@Suite struct StorageFullTests {
    static let fullDevice = URL(fileURLWithPath: "/dev/full")

    @Test func foundationsFailedWritesOnAFullDiskAre507() throws {
        let handle = try FileHandle(forWritingTo: Self.fullDevice)
        defer { try? handle.close() }
        let failures: [any Error] = [
            try #require(throws: (any Error).self) { try handle.write(contentsOf: Data(count: 1 << 16)) },
            try #require(throws: (any Error).self) { try Data(count: 1 << 16).write(to: Self.fullDevice) },
            POSIXError(.EDQUOT),
        ]
        for failure in failures {
            let answer = HTTPError(wrapping: failure)
            #expect(answer.status == .insufficientStorage, "\(failure)")
            #expect(answer.message == StorageFull.message)
        }
    }

    @Test func otherSystemErrorsStay500() throws {
        let missing = try #require(throws: (any Error).self) {
            try Data(count: 1).write(to: URL(fileURLWithPath: "/nonexistent-folder/file"))
        }
        for failure in [missing, POSIXError(.EACCES)] {
            #expect(HTTPError(wrapping: failure).status == .internalServerError, "\(failure)")
        }
    }
}
