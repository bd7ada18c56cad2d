import ArgumentParser

/// The exit statuses every daemon command shares (documented in docs/protocol.md):
/// 0 success, 1 the daemon answered with an error or a refusal, 2 (`open`) handled but a URL the app
/// opened was not delivered, 3 the daemon cannot be reached, 64 a usage error (argument-parser's own).
enum DaemonExitCode {
    static let refused = ExitCode(1)
    static let undelivered = ExitCode(2)
    static let unreachable = ExitCode(3)
}
