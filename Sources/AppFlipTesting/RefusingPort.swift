import Glibc

/// A TCP port on 127.0.0.1 that is bound but not listening for as long as this lives: every connection to
/// it is refused. A port that merely stopped listening may be taken by another test's server meanwhile, and
/// then a "refused" test meets a server instead.
public final class RefusingPort: Sendable {
    /// The port, on 127.0.0.1 only.
    public let port: Int
    private let descriptor: Int32

    /// Binds a fresh port without listening on it.
    public init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RefusingPortError(call: "socket", errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socket in
                bind(descriptor, socket, length) == 0 && getsockname(descriptor, socket, &length) == 0
            }
        }
        guard bound else {
            let error = RefusingPortError(call: "bind", errno: errno)
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}

/// A system call that failed while reserving a ``RefusingPort``.
public struct RefusingPortError: Error, CustomStringConvertible {
    let call: String
    let errno: Int32
    public var description: String { "\(call) failed: \(String(cString: strerror(errno)))" }
}
