import Foundation
import Glibc

/// Who may reach the server, decided before it starts: loopback needs nothing; any other
/// address needs a password, read from the environment (a command-line argument would show in
/// `ps` and shell history).
struct ListenPolicy {
    static let passwordVariable = "WISHLIST_PASSWORD"
    static let passwordFileVariable = "WISHLIST_PASSWORD_FILE"

    let password: String?
    /// Host names to answer besides the local ones: the address itself when it is a specific one.
    let extraHosts: [String]

    init(host: String, environment: [String: String]) throws {
        password = try Self.password(from: environment)
        let isLoopback = Self.isLoopback(host)
        if !isLoopback, password == nil {
            throw Invocation.UsageError(description: """
                Refusing to listen on \(host): other machines could reach your wishlist. Set a password in \
                \(Self.passwordVariable) or in a file named by \(Self.passwordFileVariable), or listen on 127.0.0.1.
                """)
        }
        let isWildcard = host == "0.0.0.0" || host == "::"
        extraHosts = isLoopback || isWildcard ? [] : [host.contains(":") ? "[\(host)]" : host]
    }

    /// The configured password; nil when neither variable is set.
    static func password(from environment: [String: String]) throws -> String? {
        let direct = environment[passwordVariable]
        let file = environment[passwordFileVariable]
        if direct != nil, file != nil {
            throw Invocation.UsageError(description: "Set either \(passwordVariable) or \(passwordFileVariable), not both.")
        }
        if let direct {
            guard !direct.isEmpty else { throw Invocation.UsageError(description: "\(passwordVariable) is empty.") }
            return direct
        }
        guard let file else { return nil }
        guard let contents = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw Invocation.UsageError(description: "Cannot read the password file \(file) named by \(passwordFileVariable).")
        }
        // A file written by `echo` ends with a line break that is not part of the password.
        let password = contents.hasSuffix("\r\n") ? String(contents.dropLast(2))
            : contents.hasSuffix("\n") ? String(contents.dropLast()) : contents
        guard !password.isEmpty else {
            throw Invocation.UsageError(description: "The password file \(file) is empty.")
        }
        return password
    }

    /// 127.0.0.0/8 and ::1 (also as an IPv4-mapped address): only this machine can connect.
    static func isLoopback(_ host: String) -> Bool {
        if host.lowercased() == "localhost" { return true }
        var ipv4 = in_addr()
        if inet_pton(AF_INET, host, &ipv4) == 1 {
            return UInt32(bigEndian: ipv4.s_addr) >> 24 == 127
        }
        var ipv6 = in6_addr()
        guard inet_pton(AF_INET6, host, &ipv6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &ipv6) { Array($0) }
        let isIPv6Loopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
        let isMappedIPv4Loopback = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff && bytes[12] == 127
        return isIPv6Loopback || isMappedIPv4Loopback
    }
}
