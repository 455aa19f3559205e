import Glibc

/// A bound, listening TCP socket, opened here rather than by libmicrohttpd so that a port in
/// use is reported as such and an ephemeral port can be read back. Bound before the rest of a
/// server is set up, it lets a port in use fail a start before anything else is touched;
/// `Server.start(listeningOn:)` then serves on it.
public struct ListeningSocket: Sendable {
    let descriptor: Int32
    public let port: Int

    public init(host: String, port: Int) throws {
        var storage = sockaddr_storage()
        let family: Int32
        let length: socklen_t
        if host.contains(":") {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET6, String(host.filter { $0 != "[" && $0 != "]" }), &address.sin6_addr) == 1 else {
                throw ServerError.invalidHost(host)
            }
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in6.self) }
            (family, length) = (AF_INET6, socklen_t(MemoryLayout<sockaddr_in6>.size))
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr) == 1 else {
                throw ServerError.invalidHost(host)
            }
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
            (family, length) = (AF_INET, socklen_t(MemoryLayout<sockaddr_in>.size))
        }

        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw ServerError.socketFailed(String(cString: strerror(errno))) }
        var enable: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &enable, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, SOMAXCONN) == 0 else {
            let code = errno
            close(descriptor)
            throw code == EADDRINUSE ? ServerError.portInUse(port) : ServerError.socketFailed(String(cString: strerror(code)))
        }
        var boundAddress = sockaddr_storage()
        var boundLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &boundAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &boundLength) }
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: withUnsafeBytes(of: &boundAddress) {
            family == AF_INET6 ? $0.load(as: sockaddr_in6.self).sin6_port : $0.load(as: sockaddr_in.self).sin_port
        }))
    }
}

/// The numeric address of a peer, e.g. `127.0.0.1` or `::1`.
func numericAddress(_ address: UnsafePointer<sockaddr>) -> String {
    switch Int32(address.pointee.sa_family) {
    case AF_INET:
        // Asked for every request: inet_ntop goes through sprintf, ten times the cost of this.
        let raw = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
        // At most 15 bytes: a String that small lives inline, with no allocation.
        return String(unsafeUninitializedCapacity: 15) { text in
            var count = 0
            withUnsafeBytes(of: raw) { octets in
                for (index, octet) in octets.enumerated() {
                    if index > 0 {
                        text[count] = UInt8(ascii: ".")
                        count += 1
                    }
                    for divisor in [100, 10, 1] where Int(octet) >= divisor || divisor == 1 {
                        text[count] = UInt8(ascii: "0") + UInt8(Int(octet) / divisor % 10)
                        count += 1
                    }
                }
            }
            return count
        }
    case AF_INET6:
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet6 in
            var raw = inet6.pointee.sin6_addr
            _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    default:
        return ""
    }
}
