import AppFlipCore
import FoundationEssentials
import Glibc
import Subprocess
import SystemPackage

/// Reads an app's build artifact by running `appflip app inspect --json FILE`: the readers (ZIPFoundation,
/// swift-asn1, Foundation's XML and property-list parsers) stay out of the daemon, which links none of them.
///
/// The run is bounded: killed with its process group at the time limit, its report at most ``maxReportBytes``,
/// its error output at most ``maxErrorBytes``. Every way it can fail is an ``ArtifactRefusal`` that names
/// the artifact and what went wrong, for the one app file that names it.
struct ArtifactInspector: Sendable {
    /// The largest report read: an inspected manifest at its bounds (docs/artifacts.md) prints far less.
    static let maxReportBytes = 8 << 20
    /// The error output kept: `appflip` writes one line when it cannot read an artifact.
    static let maxErrorBytes = 4096

    /// The `appflip` executable.
    var command: String
    var timeout: Duration

    init(configuration: DaemonConfiguration) {
        command = configuration.appflipPathInEffect
        timeout = .milliseconds(Int64(configuration.artifactTimeoutSeconds * 1000))
    }

    /// What `app inspect --json` says of the artifact, as far as the daemon routes by it.
    struct Report: Decodable, Sendable {
        /// `android` or `ios`.
        var platform: String
        /// `apk`, `aab`, a manifest's kind, or an iOS kind.
        var kind: String
        /// The app as appflipd routes it, for an Android artifact.
        var identity: ArtifactIdentity?
        /// The associated domains an iOS artifact claims, and where from.
        var associatedDomains: AssociatedDomains?
        /// Each iOS source's app ID.
        var appIDs: [AppID]?
    }

    /// An iOS report's `associatedDomains`: the entitlements that claim them, and the claim.
    struct AssociatedDomains: Decodable, Sendable {
        /// One entry of the claim.
        struct Entry: Decodable, Sendable {
            var entry: String
            var service: String?
            /// Why iOS ignores the entry, when it does.
            var error: String?
        }

        enum Claim: Decodable, Sendable {
            /// `*`: what a profile allows, never a claim.
            case anyDomain
            case malformed(String)
            case entries([Entry])

            private enum CodingKeys: String, CodingKey {
                case malformed
            }

            init(from decoder: any Decoder) throws {
                if let entries = try? [Entry](from: decoder) {
                    self = .entries(entries)
                } else if let keyed = try? decoder.container(keyedBy: CodingKeys.self),
                    let value = try keyed.decodeIfPresent(String.self, forKey: .malformed)
                {
                    self = .malformed(value)
                } else {
                    _ = try decoder.singleValueContainer().decode(String.self)
                    self = .anyDomain
                }
            }
        }

        /// `signed entitlements` or `entitlements file`.
        var source: String
        var claim: Claim?
    }

    /// One source's app ID in an iOS report.
    struct AppID: Decodable, Sendable {
        var source: String
        var appID: String
        /// The bundle is `*` or ends in `*`, as a profile may allow.
        var wildcard: Bool
    }

    /// The `identity` member of an Android report: an `AndroidIdentity`'s members, decoded without its checks,
    /// since a manifest alone, and a bundle for the devices that install its APKs, carry no fingerprint.
    struct ArtifactIdentity: Decodable, Sendable {
        var package: String
        var fingerprints: [String]
        var activities: [AndroidActivity]
        var intentFilters: [IntentFilter]

        private enum CodingKeys: String, CodingKey {
            case package, fingerprints, activities, intentFilters
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            package = try container.decode(String.self, forKey: .package)
            fingerprints = try container.decode([String].self, forKey: .fingerprints)
            activities = try container.decode([AndroidActivity].self, forKey: .activities)
            intentFilters = try container.decodeIfPresent([IntentFilter].self, forKey: .intentFilters) ?? []
        }
    }

    /// The run's outcome, before it is judged.
    private struct Finished: Sendable {
        var status: TerminationStatus
        var report: [UInt8]
        var oversized: Bool
        var standardError: String
    }

    /// Inspects `file` and returns its report.
    /// - Throws: why the artifact cannot be routed by: the inspector could not be run, timed out, failed
    ///   (with its own message, such as a missing file or a malformed archive), or printed no report.
    func inspect(_ file: String) async throws(ArtifactRefusal) -> Report {
        let finished: Finished?
        do {
            finished = try await ProcessGroupDeadline.run(within: timeout) { started in try await run(file, started: started) }
        } catch {
            throw ArtifactRefusal("cannot run \(command) app inspect on \(file) (appflipPath in appflipd.json): \(error)")
        }
        guard let finished else {
            throw ArtifactRefusal(
                "\(command) app inspect did not finish reading \(file) within \(timeout) and was killed (artifactTimeoutSeconds)"
            )
        }
        guard !finished.oversized else {
            throw ArtifactRefusal("\(command) app inspect printed more than \(Self.maxReportBytes) bytes for \(file) and was killed: not its report")
        }
        switch finished.status {
        case .exited(0): break
        case .exited(let code):
            let reason = Self.lastLine(finished.standardError).map { ": \($0)" } ?? ""
            throw ArtifactRefusal("\(command) app inspect cannot read \(file) (exit status \(code))\(reason)")
        case .signaled(let signal):
            throw ArtifactRefusal("\(command) app inspect was killed by signal \(signal) reading \(file)")
        }
        do {
            return try JSONDecoder().decode(Report.self, from: Data(finished.report))
        } catch {
            throw ArtifactRefusal("\(command) app inspect printed no report for \(file) that the daemon reads: \(Self.describe(error))")
        }
    }

    private func run(_ file: String, started: @escaping @Sendable (pid_t) -> Void) async throws -> Finished {
        var platformOptions = PlatformOptions()
        platformOptions.processGroupID = 0  // its own group, so that the time limit kills what it starts too
        let result = try await Subprocess.run(
            .path(FilePath(command)),
            arguments: ["app", "inspect", "--json", file],
            platformOptions: platformOptions,
            input: .none,
            output: .sequence,
            error: .string(limit: Self.maxErrorBytes)
        ) { execution in
            started(execution.processIdentifier.value)
            var report: [UInt8] = []
            for try await chunk in execution.standardOutput {
                guard report.count + chunk.count <= Self.maxReportBytes else {
                    try? execution.send(signal: .kill, toProcessGroup: true)
                    return (report, true)
                }
                chunk.withUnsafeBytes { report.append(contentsOf: $0) }
            }
            return (report, false)
        }
        let (report, oversized) = result.closureResult
        return Finished(status: result.terminationStatus, report: report, oversized: oversized, standardError: result.standardError)
    }

    /// The last non-empty line of `text`, at most 300 characters.
    private static func lastLine(_ text: String) -> String? {
        text.split(whereSeparator: \.isNewline).last(where: { !$0.allSatisfy(\.isWhitespace) }).map { String($0.prefix(300)) }
    }

    /// A decoding error in words, with the member it is at.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not JSON" }
        switch error {
        case .keyNotFound(let key, let context):
            return "no `\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))`"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return context.codingPath.isEmpty ? "not JSON" : "`\(path.drop(while: { $0 == "." }))` is invalid"
        @unknown default:
            return "not JSON"
        }
    }
}

/// Why an app file's artifact cannot be routed by.
struct ArtifactRefusal: Error, Sendable {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
