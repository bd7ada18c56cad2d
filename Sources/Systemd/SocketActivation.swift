import CSystemd
import Glibc

/// The sockets systemd passed when it activated this process.
public enum SocketActivation {
    /// Takes every socket systemd passed.
    ///
    /// Call once, at start-up: it unsets `LISTEN_PID`, `LISTEN_FDS` and `LISTEN_FDNAMES`, so that the
    /// processes the daemon spawns (exec handlers) do not believe the sockets are theirs. Later calls
    /// return `[]`. Outside socket activation it returns `[]`.
    public static func takeSockets() throws(SystemdError) -> [ActivatedSocket] {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = sd_listen_fds_with_names(1, &names)
        if count < 0 { throw SystemdError(function: "sd_listen_fds_with_names", result: count) }
        defer {
            if let names {
                for index in 0..<Int(count) { free(names[index]) }
                free(names)
            }
        }
        return (0..<count).map { index in
            let name = names?[Int(index)].map { String(cString: $0) } ?? "unknown"
            return ActivatedSocket(name: name, fileDescriptor: SD_LISTEN_FDS_START + index)
        }
    }

    /// The listening Unix stream socket named `name` among `sockets`, or `nil` when systemd passed none
    /// by that name (the daemon then binds its path itself).
    ///
    /// - Throws: `SocketActivationError.notAListeningUnixStreamSocket` when a socket has the name but is
    ///   of another kind: a unit written for another daemon must not be served silently.
    public static func listeningUnixStreamSocket(
        named name: String,
        in sockets: [ActivatedSocket]
    ) throws(SocketActivationError) -> Int32? {
        guard let socket = sockets.first(where: { $0.name == name }) else { return nil }
        guard sd_is_socket_unix(socket.fileDescriptor, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0 else {
            throw .notAListeningUnixStreamSocket(name: name, fileDescriptor: socket.fileDescriptor)
        }
        return socket.fileDescriptor
    }
}

/// A listening socket that systemd opened for this service and passed on start (sd_listen_fds(3)).
public struct ActivatedSocket: Sendable, Hashable {
    /// The `.socket` unit's `FileDescriptorName=`, or the unit name when none is set.
    public let name: String
    /// The descriptor, already bound and listening, with `FD_CLOEXEC` set.
    public let fileDescriptor: Int32
}

/// A socket passed by systemd cannot serve as the daemon's listener.
public enum SocketActivationError: Error, Sendable, Hashable, CustomStringConvertible {
    case notAListeningUnixStreamSocket(name: String, fileDescriptor: Int32)

    /// A sentence naming the socket and the unit setting to check.
    public var description: String {
        switch self {
        case .notAListeningUnixStreamSocket(let name, let fileDescriptor):
            "the socket named \(name) (fd \(fileDescriptor)) passed by systemd is not a listening Unix stream socket; "
                + "check ListenStream= in the .socket unit"
        }
    }
}
