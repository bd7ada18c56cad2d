import Glibc

/// Where appflipd listens and its clients connect when neither `--socket` nor the configuration says.
public enum SocketPath {
    /// `sizeof(sockaddr_un.sun_path)`: a path must be shorter, to leave room for its NUL.
    public static let maxLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    /// There is no default for a user without a runtime directory.
    public struct Unavailable: Error, Sendable, CustomStringConvertible {
        /// Why there is no default, and what to give instead.
        public var description: String { "XDG_RUNTIME_DIR is not set; give --socket or `socket` in the config" }
    }

    /// `/run/appflipd/appflipd.sock` for root, `$XDG_RUNTIME_DIR/appflipd/appflipd.sock` for anyone else.
    public static func defaultPath() throws(Unavailable) -> String {
        try defaultPath(uid: getuid(), runtimeDirectory: getenv("XDG_RUNTIME_DIR").map { String(cString: $0) })
    }

    /// The default path for this user and runtime directory.
    package static func defaultPath(uid: UInt32, runtimeDirectory: String?) throws(Unavailable) -> String {
        if uid == 0 { return "/run/appflipd/appflipd.sock" }
        guard let runtimeDirectory, runtimeDirectory.hasPrefix("/") else { throw Unavailable() }
        return runtimeDirectory + "/appflipd/appflipd.sock"
    }
}
