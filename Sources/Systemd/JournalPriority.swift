public import Logging

/// syslog(3) priorities, as journald stores them in `PRIORITY=`.
public enum JournalPriority: Int, Sendable, Hashable {
    case emergency = 0
    case alert, critical, error, warning, notice, info, debug

    /// swift-log's seven levels on syslog's eight: `trace` and `debug` both become debug (7), because
    /// syslog has nothing below it; the other five keep their names.
    public init(_ level: Logger.Level) {
        switch level {
        case .trace, .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .critical
        }
    }
}
