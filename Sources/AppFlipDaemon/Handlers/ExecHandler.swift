import AppFlipProtocol
import FoundationEssentials
import Glibc
import Logging
import Subprocess
import SystemPackage

/// `"handler": {"exec": {…}}`: runs a command once per activity.
///
/// The activity's JSON is written to stdin, followed by a newline. Each stdout line is a URL to open: a
/// plain URL is opened with `universalLinksOnly: true`; a line that starts with `{` is an
/// `{"url":…,"options":{…}}` object. Exit status 0 continues, 1 declines (the last stderr line is the
/// reason the opener reads), anything else (another status, a
/// signal, a line over the limit) is `handler_failed`. At the time limit the command's whole process group
/// is killed and the handoff fails with `timeout`.
struct ExecHandler: ActivityHandler {
    let kind = "exec"

    var command: FilePath
    var arguments: [String]
    var timeout: Duration
    var workingDirectory: FilePath
    var maxLineBytes: Int

    func handle(_ handoff: Handoff) {
        Task {
            do {
                handoff.answer(.success(try await run(handoff)))
            } catch {
                handoff.answer(.failure(error))
            }
        }
    }

    private struct Finished: Sendable {
        var status: TerminationStatus
        var badLine: String?
        var standardError: String
    }

    private func run(_ handoff: Handoff) async throws -> ActivityAnswer {
        let finished = try await ProcessGroupDeadline.run(within: timeout) { started in try await spawn(handoff, started: started) }
        guard let finished else {
            throw ErrorBody(.timeout, "\(command) did not exit within \(timeout) and was killed", app: handoff.appID)
        }
        if !finished.standardError.isEmpty {
            handoff.logger.debug("exec handler stderr", metadata: ["app": "\(handoff.appID)", "stderr": "\(finished.standardError)"])
        }
        if let badLine = finished.badLine {
            throw ErrorBody(.handlerFailed, "\(command) wrote a stdout line that is not a URL or an open request: \(badLine)", app: handoff.appID)
        }
        switch finished.status {
        case .exited(0): return .continue
        case .exited(1): return .decline(Self.reason(finished.standardError))
        case .exited(let code):
            throw ErrorBody(.handlerFailed, "\(command) exited with status \(code) (0 continues, 1 declines)", app: handoff.appID)
        case .signaled(let signal):
            throw ErrorBody(.handlerFailed, "\(command) was killed by signal \(signal)", app: handoff.appID)
        }
    }

    private func spawn(_ handoff: Handoff, started: @escaping @Sendable (pid_t) -> Void) async throws -> Finished {
        var platformOptions = PlatformOptions()
        platformOptions.processGroupID = 0  // its own group, so that a timeout kills its children too
        let input = try Array(JSONEncoder.protocolEncoder.encode(handoff.activity)) + [UInt8(ascii: "\n")]
        do {
            let result = try await Subprocess.run(
                .path(command),
                arguments: Arguments(arguments),
                environment: .inherit.updating(["APPFLIP_APP_ID": handoff.appID, "APPFLIP_RULE": handoff.rule]),
                workingDirectory: workingDirectory,
                platformOptions: platformOptions,
                input: .inputWriter,
                output: .sequence,
                error: .string(limit: 4096)
            ) { execution in
                started(execution.processIdentifier.value)
                async let written: Void = {
                    // A command may exit without reading stdin; its closed pipe is not the handler's failure.
                    _ = try? await execution.standardInputWriter.write(input)
                    try? await execution.standardInputWriter.finish()
                }()
                var badLine: String?
                do {
                    for try await line in execution.standardOutput.strings(bufferingPolicy: .maxLineLength(maxLineBytes)) {
                        if line.allSatisfy({ $0 == "\r" }) { continue }
                        guard let request = Self.openRequest(line) else {
                            badLine = badLine ?? String(line.prefix(200))
                            continue
                        }
                        handoff.open(request.url, options: request.options)
                    }
                } catch {
                    badLine = "a line over \(maxLineBytes) bytes"
                    try? execution.send(signal: .kill, toProcessGroup: true)
                }
                await written
                return badLine
            }
            return Finished(status: result.terminationStatus, badLine: result.closureResult, standardError: result.standardError)
        } catch let error as SubprocessError {
            throw ErrorBody(.handlerFailed, "cannot run \(command): \(error)", app: handoff.appID)
        }
    }

    /// A declining command's reason: the last non-empty line it wrote to stderr, at most 200 characters.
    private static func reason(_ standardError: String) -> String? {
        guard let line = standardError.split(whereSeparator: \.isNewline).last(where: { !$0.allSatisfy(\.isWhitespace) }) else {
            return nil
        }
        return String(line.prefix(200))
    }

    /// A stdout line as an open request: a plain URL, or a JSON `{"url":…,"options":{…}}` object.
    private static func openRequest(_ line: String) -> OpenURLRequest? {
        let trimmed = line.trimmingSuffix(while: { $0 == "\r" })
        if trimmed.hasPrefix("{") {
            return try? JSONDecoder().decode(OpenURLRequest.self, from: Data(trimmed.utf8))
        }
        guard !trimmed.contains(where: { $0 == " " || $0 == "\t" }) else { return nil }
        return OpenURLRequest(url: String(trimmed), options: OpenOptions(universalLinksOnly: true))
    }
}

extension String {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
