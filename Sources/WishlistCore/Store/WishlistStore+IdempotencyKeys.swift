import Foundation
import Persistence

/// A write's idempotency key as kept: the request it came with (`fingerprint`) and the answer to
/// give that request again. Kept in the write's own transaction (`recordingKey`), so a key is
/// known exactly when its write committed, whatever happens to the process after.
public struct KeptWrite: Sendable, Equatable {
    public let fingerprint: String
    /// nil when the write committed but its answer was not kept (too large, or the process ended first).
    public let answer: KeptAnswer?
}

/// What a write answered, to answer its replays alike.
public struct KeptAnswer: Sendable, Equatable {
    public let status: Int
    public let location: String?
    public let contentType: String?
    public let body: [UInt8]

    public init(status: Int, location: String?, contentType: String?, body: [UInt8]) {
        (self.status, self.location, self.contentType, self.body) = (status, location, contentType, body)
    }
}

extension WishlistStore {
    /// A key is kept this long: longer than a write waits in a browser kept offline.
    public static let idempotencyKeyLifetime: TimeInterval = 30 * 24 * 60 * 60
    /// Keys kept per client at most; past it that client's own oldest go, never another's.
    public static let idempotencyKeysPerClient = 20_000

    /// The write `key` names, if it committed and is not expired.
    public func keptWrite(key: String) throws -> KeptWrite? {
        let oldest = clock.now().addingTimeInterval(-Self.idempotencyKeyLifetime)
        return try database.read { connection in
            try connection.fetchOne("""
                SELECT fingerprint, status, location, content_type, body FROM IdempotencyKey
                WHERE key = ? AND creation_date >= ?
                """, [key, oldest]).map { row in
                let status: Int? = row["status"]
                return KeptWrite(fingerprint: row["fingerprint"], answer: status.map { status in
                    KeptAnswer(status: status, location: row["location"], contentType: row["content_type"],
                               body: row["body"] ?? [])
                })
            }
        }
    }

    /// Keeps `key` in the transaction of the first write made under it (`Database.withCompanion`),
    /// dropping expired keys and, past the quota, `client`'s own oldest.
    public func recordingKey(_ key: String, client: String, fingerprint: String,
                             quota: Int = idempotencyKeysPerClient) -> WriteCompanion {
        WriteCompanion { [clock] connection in
            let now = clock.now()
            try connection.execute("DELETE FROM IdempotencyKey WHERE creation_date < ?",
                                   [now.addingTimeInterval(-Self.idempotencyKeyLifetime)])
            try connection.execute("""
                DELETE FROM IdempotencyKey WHERE key IN (
                    SELECT key FROM IdempotencyKey WHERE client = ? ORDER BY creation_date DESC LIMIT -1 OFFSET ?)
                """, [client, quota - 1])
            try connection.execute("INSERT INTO IdempotencyKey(key, client, fingerprint, creation_date) VALUES (?, ?, ?, ?)",
                                   [key, client, fingerprint, now])
        }
    }

    /// Keeps the answer `key`'s committed write gave, for its replays.
    public func keepAnswer(_ answer: KeptAnswer, forKey key: String) throws {
        try database.write(author: Self.appAuthor) { connection in
            try connection.execute("UPDATE IdempotencyKey SET status = ?, location = ?, content_type = ?, body = ? WHERE key = ?",
                                   [answer.status, answer.location, answer.contentType, answer.body, key])
        }
    }
}
