import Glibc

/// Whether this process's stderr is systemd's stream connection to journald.
///
/// systemd sets `JOURNAL_STREAM=<device>:<inode>` for the stream it connects to stdout/stderr. A child
/// process inherits the variable even when its stderr was redirected, so systemd.exec(5) says to compare
/// it with stderr's own device and inode: only when they match is stderr the journal.
public enum JournalStream {
    /// True only when stderr's device and inode are those `JOURNAL_STREAM` names.
    public static func isStandardErrorConnected() -> Bool {
        guard let value = getenv("JOURNAL_STREAM") else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return matches(String(cString: value), device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// Whether `JOURNAL_STREAM`'s value names the file with this device and inode number.
    static func matches(_ value: String, device: UInt64, inode: UInt64) -> Bool {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let streamDevice = UInt64(parts[0]), let streamInode = UInt64(parts[1]) else {
            return false
        }
        return streamDevice == device && streamInode == inode
    }
}
