package import AppFlipClient
package import AppFlipProtocol
package import ArgumentParser
import Glibc
import NIOCore
import NIOPosix

/// `--socket` and `--json`, shared by every command that talks to appflipd.
package struct DaemonConnectionOptions: ParsableArguments {
    package init() {}

    @Option(
        help:
            "The daemon's socket (default: $APPFLIP_SOCKET, else /run/appflipd/appflipd.sock for root, $XDG_RUNTIME_DIR/appflipd/appflipd.sock otherwise)."
    )
    package var socket: String?

    @Flag(help: "Print JSON (the protocol's own reply shapes) instead of text.")
    package var json = false

    @Option(help: "Attempts in all when appflipd is unreachable or the connection drops before the reply (a restart), 50 ms apart and doubling.")
    package var attempts = 5

    package var socketPath: String {
        get throws { try Self.socketPath(socket) }
    }

    /// `--socket` when given, else `$APPFLIP_SOCKET`, else the protocol's default path.
    package static func socketPath(_ option: String?) throws -> String {
        if let option { return option }
        if let fromEnvironment = getenv("APPFLIP_SOCKET") { return String(cString: fromEnvironment) }
        do {
            return try SocketPath.defaultPath()
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Connects and says `hello`, turning a failure into exit status 3 with the reason on stderr.
    package func connect() async throws -> AppFlipConnection {
        let path = try socketPath
        do {
            return try await AppFlipConnection.connect(to: path, client: "appflip")
        } catch {
            printError(DaemonUnreachable.sentence(socketPath: path))
            throw DaemonExitCode.unreachable
        }
    }
}

extension DaemonConnectionOptions {
    /// Sends one request on a connection of its own, retried (``RetryPolicy``) while no reply came;
    /// a daemon still unreachable after the last attempt is exit status 3.
    package func send(_ body: RequestBody) async throws -> Reply {
        let path = try socketPath
        guard attempts >= 1 else { throw ValidationError("--attempts must be at least 1") }
        do {
            return try await AppFlipConnection.send(body, to: path, client: "appflip", retry: RetryPolicy(maxAttempts: attempts)) {
                attempt,
                error in
                // A connection that dropped before its reply (a daemon restarting mid-request) is worth a
                // line each time; a socket that refuses or is missing is said once, at the end.
                guard !Self.findsNoDaemon(error) else { return }
                printError("attempt \(attempt) lost its connection before the reply; retrying")
            }
        } catch let error as ErrorBody {
            // The daemon refused the connection's `hello`: that is its answer.
            return Reply(id: nil, op: body.op, error: error)
        } catch {
            printError(DaemonUnreachable.sentence(socketPath: path))
            throw DaemonExitCode.unreachable
        }
    }
}

extension DaemonConnectionOptions {
    /// The socket refused the connection or does not exist: no daemon behind it, as opposed to one that
    /// went away mid-request.
    static func findsNoDaemon(_ error: any Error) -> Bool {
        switch error {
        case let error as IOError: [ECONNREFUSED, ENOENT].contains(error.errnoCode)
        case let error as NIOConnectionError: error.connectionErrors.contains { findsNoDaemon($0.error) }
        default: false
        }
    }
}

func printError(_ message: String) {
    var standardError = FileHandleOutputStream.standardError
    print("appflip: \(message)", to: &standardError)
}

/// The exit statuses every daemon command shares (documented in docs/protocol.md):
/// 0 success, 1 the daemon answered with an error or a refusal, 2 (`open`) handled but a URL the app
/// opened was not delivered, 3 the daemon cannot be reached, 64 a usage error (argument-parser's own).
enum DaemonExitCode {
    static let refused = ExitCode(1)
    static let undelivered = ExitCode(2)
    static let unreachable = ExitCode(3)
}
