import AppFlipConfiguration
import AppFlipCore
import AppFlipProtocol
import FoundationEssentials
import Glibc
import NIOCore
import SystemPackage

/// `"exec": {"command": "…", "args": […], "timeoutSeconds": 5}`.
struct ExecHandlerFactory: HandlerFactory {
    let kind = "exec"

    private struct Configuration: Decodable {
        var command: String
        var args: [String]?
        var timeoutSeconds: Double?

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case command, args, timeoutSeconds
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
            command = try container.decode(String.self, forKey: .command)
            args = try container.decodeIfPresent([String].self, forKey: .args)
            timeoutSeconds = try container.decodeIfPresent(Double.self, forKey: .timeoutSeconds)
        }
    }

    func makeHandler(_ configuration: JSONValue, context: HandlerFactoryContext) throws(ConfigurationError) -> any ActivityHandler {
        let exec = try context.decode(Configuration.self, from: configuration)
        let command = ConfigurationFile.resolve(exec.command, against: context.directory)
        guard access(command, X_OK) == 0 else {
            throw ConfigurationError(file: context.file, field: "\(context.field).command", "\(command) is not an executable file")
        }
        let timeout = exec.timeoutSeconds ?? context.daemon.execTimeoutSeconds
        guard timeout > 0, timeout <= 3600 else {
            throw ConfigurationError(file: context.file, field: "\(context.field).timeoutSeconds", "must be more than 0 and at most 3600")
        }
        return ExecHandler(
            command: FilePath(command),
            arguments: exec.args ?? [],
            timeout: .milliseconds(Int64(timeout * 1000)),
            workingDirectory: FilePath(context.directory),
            maxLineBytes: context.daemon.maxLineBytes
        )
    }
}
