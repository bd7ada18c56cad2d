import Glibc

/// A datagram socket standing in for systemd's notify socket. Named by `NOTIFY_SOCKET`, it receives the
/// daemon's `READY=1`, `RELOADING=1` and `STATUS=` messages: the positive sign that a reload has finished,
/// even one that changes nothing.
final class NotifySocket: Sendable {
    let path: String
    private let descriptor: Int32

    init(path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw NotifySocketError(description: "socket: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            throw NotifySocketError(description: "\(path) is too long for a socket path")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { sunPath in
            for (index, byte) in bytes.enumerated() { sunPath[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw NotifySocketError(description: "bind \(path): errno \(errno)")
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// Waits for a message that contains `text`, skipping the others, and returns it; throws once `limit`
    /// has passed without one.
    func message(containing text: String, within limit: Duration = .seconds(30)) async throws -> String {
        let deadline = ContinuousClock.now + limit
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count > 0 {
                let message = String(decoding: buffer[..<count], as: UTF8.self)
                if message.contains(text) { return message }
                continue
            }
            guard ContinuousClock.now < deadline else {
                throw NotifySocketError(description: "no notify message containing \"\(text)\" within \(limit)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// What ``NotifySocket`` throws: a socket it cannot make, or a message that does not come.
struct NotifySocketError: Error, CustomStringConvertible {
    var description: String
}
