#if canImport(Glibc)
import Glibc
#endif

/// Where the daemon listens when neither `--socket` nor the config says.
public enum SocketPath {
    /// `sizeof(sockaddr_un.sun_path)`: a path must be shorter, to leave room for its NUL.
    public static let maxLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    /// `/run/appflipd/appflipd.sock` for root, `$XDG_RUNTIME_DIR/appflipd/appflipd.sock` for anyone else.
    public static func defaultPath(uid: UInt32 = getuid(), runtimeDirectory: String? = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }) throws(ConfigurationError) -> String {
        if uid == 0 { return "/run/appflipd/appflipd.sock" }
        guard let runtimeDirectory, runtimeDirectory.hasPrefix("/") else {
            throw ConfigurationError(file: "appflipd", field: "socket", "XDG_RUNTIME_DIR is not set; give --socket or `socket` in the config")
        }
        return runtimeDirectory + "/appflipd/appflipd.sock"
    }
}
