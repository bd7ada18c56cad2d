import Glibc

/// The one sentence every command prints when appflipd cannot be reached: which socket, what was found
/// there, and how to start the daemon. The underlying NIO error is left out: it says less than this, once per retry.
public enum DaemonUnreachable {
    /// E.g. "appflipd is not running at /run/appflipd/appflipd.sock (no socket there): start it with …".
    public static func sentence(socketPath: String) -> String {
        var status = stat()
        let found: String
        if stat(socketPath, &status) != 0 {
            found = errno == EACCES ? "permission denied: join the appflip group or use your own daemon" : "no socket there"
        } else if (status.st_mode & mode_t(S_IFMT)) != mode_t(S_IFSOCK) {
            found = "that file is not a socket"
        } else if access(socketPath, R_OK | W_OK) != 0 {
            found = "permission denied: join the appflip group or use your own daemon"
        } else {
            found = "the socket refuses connections"
        }
        return "appflipd is not running at \(socketPath) (\(found)): start it with `sudo systemctl start appflipd.socket`, "
            + "`systemctl --user start appflipd.socket`, or `appflipd --socket \(socketPath)`, or point --socket or $APPFLIP_SOCKET at a running daemon"
    }
}
