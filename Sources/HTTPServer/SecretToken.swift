import CMicroHTTPD
import Glibc

/// Unguessable tokens (CSRF tokens, session ids) and comparisons that leak nothing through timing.
enum SecretToken {
    static let length = 64

    /// Fills a buffer with random bytes, returning how many or -1 with `errno` set, as `getrandom`.
    typealias RandomSource = (UnsafeMutableRawPointer, Int) -> Int

    /// 32 random bytes as hex, from the system's cryptographic generator in one `getrandom`
    /// call (`SystemRandomNumberGenerator` makes one system call per 8 bytes: four per token, and
    /// it traps when the system has no random bytes to give). Without random bytes the request
    /// is refused with a 503, never answered with a guessable token.
    static func make(from source: RandomSource = { getrandom($0, $1, 0) }) throws(HTTPError) -> String {
        var random: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let failure = withUnsafeMutableBytes(of: &random) { buffer -> Int32? in
            var filled = 0
            while filled < buffer.count {
                let count = source(buffer.baseAddress! + filled, buffer.count - filled)
                if count > 0 {
                    filled += count
                } else if errno != EINTR {
                    return errno
                }
            }
            return nil
        }
        if let failure {
            writeStandardErrorLine("error: no random bytes for a token: \(String(cString: strerror(failure)))")
            throw HTTPError(.serviceUnavailable, "The server could not make a secure token; try again shortly.",
                            headers: ["Retry-After": "1"])
        }
        return withUnsafeBytes(of: &random) { bytes in
            String(unsafeUninitializedCapacity: length) { hex in
                for (index, byte) in bytes.enumerated() {
                    hex[2 * index] = hexDigits[Int(byte >> 4)]
                    hex[2 * index + 1] = hexDigits[Int(byte & 0x0f)]
                }
                return length
            }
        }
    }

    /// True for text of the shape `make()` produces (so a forged cookie is never looked up or echoed).
    static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == length && token.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }

    /// Whether `guess` equals `secret`, in a time that depends only on the lengths: it never
    /// returns early, so timing does not reveal how much of a guess matched.
    static func constantTimeEquals(_ guess: String, _ secret: String) -> Bool {
        let guessed = Array(guess.utf8), expected = Array(secret.utf8)
        var difference: UInt8 = guessed.count == expected.count ? 0 : 1
        for index in expected.indices {
            difference |= (index < guessed.count ? guessed[index] : 0) ^ expected[index]
        }
        return difference == 0
    }
}

private let hexDigits = Array("0123456789abcdef".utf8)
