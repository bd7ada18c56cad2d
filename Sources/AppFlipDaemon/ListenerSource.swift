/// Where the daemon's listening socket comes from.
public enum ListenerSource: Sendable, Hashable {
    /// Bind a Unix socket at this path: mode 0660 whatever the umask, a stale socket file replaced only
    /// when nothing answers on it, and a refusal when another daemon does.
    case path(String)
    /// Serve on an already bound and listening Unix socket, such as one systemd passes in (socket
    /// activation). The daemon neither creates nor removes its file.
    case fileDescriptor(Int32)
}
