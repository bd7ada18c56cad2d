import AppFlipArtifacts
import AppFlipCore
import AppFlipHTTPClient

/// The `--app` targets of one audit: reads the artifacts, fetches the hosted files they point at, and records
/// each cross-check's verdict. An artifact that cannot be read is the audit's own input failing (could not
/// run, exit status 1) for its platform's checks; a readable one that breaks a rule fails that rule.
enum AppArtifactAudit {
    /// Records every `app.android.*` and `app.ios.*` verdict of `target` (nil: neither target is given).
    static func run(_ target: AppArtifactTarget?, _ context: AuditContext) async {
        let ledger = context.ledger
        guard let target else {
            for platform in [AuditTarget.androidArtifact, .iosArtifact] {
                ledger.set(AuditNeed(target: platform), .notGiven("not run: give \(platform.needs)"))
            }
            return
        }
        let read = Artifacts(target.files)
        for (platform, cause, problem) in read.problems {
            ledger.unreachable(problem)
            ledger.set(AuditNeed(target: platform), .couldNotRun(cause, problem))
        }
        if let android = read.android {
            ledger.establish(.androidArtifact)
            await AndroidArtifactAudit(artifact: android, target: target).record(in: ledger)
        } else {
            ledger.set(.androidArtifact, .notGiven("not run: give \(AuditTarget.androidArtifact.needs)"))
        }
        if let ios = read.ios {
            ledger.establish(.iosArtifact)
            await IOSArtifactAudit(app: ios, target: target).record(in: ledger)
        } else {
            ledger.set(.iosArtifact, .notGiven("not run: give \(AuditTarget.iosArtifact.needs)"))
        }
    }

    /// The artifacts of `--app`, read: one Android artifact, the iOS ones merged into one app, and what could
    /// not be read, by the platform it was for.
    struct Artifacts {
        var android: AndroidArtifact?
        var ios: IOSApp?
        var problems: [(AuditTarget, CouldNotRunCause, String)] = []

        init(_ files: [String]) {
            for file in files {
                do {
                    switch try AppArtifact.read(path: file) {
                    case .android(let artifact):
                        guard android == nil else {
                            problems.append(
                                (.androidArtifact, .contradictoryOptions, "--app \(file): a second Android artifact; give one APK, AAB or manifest")
                            )
                            continue
                        }
                        android = artifact
                    case .ios(_, let app):
                        ios = Self.merge(ios, app)
                    }
                } catch {
                    problems.append((Self.platform(of: file), .unreachable, "--app \(file) cannot be read: \(error)"))
                }
            }
        }

        /// The platform a file that could not be read was for: iOS when its name or its first bytes say so.
        private static func platform(of file: String) -> AuditTarget {
            let name = file.lowercased()
            let iosNames = [".ipa", ".mobileprovision", ".entitlements", ".xcent", ".plist"]
            if iosNames.contains(where: name.hasSuffix) || (try? IOSArtifacts.detect(path: file)) != nil { return .iosArtifact }
            return .androidArtifact
        }

        /// One app from the iOS files given: each source from the first file that has it.
        private static func merge(_ app: IOSApp?, _ other: IOSApp) -> IOSApp {
            guard let app else { return other }
            return IOSApp(
                infoPlist: app.infoPlist ?? other.infoPlist,
                profile: app.profile ?? other.profile,
                executable: app.executable ?? other.executable,
                entitlementsFile: app.entitlementsFile ?? other.entitlementsFile
            )
        }
    }
}
