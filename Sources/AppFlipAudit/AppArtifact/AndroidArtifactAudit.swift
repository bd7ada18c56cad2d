import AppFlipArtifacts
import AppFlipCore
import AppFlipHTTPClient

/// The Android artifact's cross-checks: its App Flip activity against `--android-action`, its signing key
/// against `--fingerprint`, and each App Links host's assetlinks.json against its keys, by both verifiers on
/// every Android generation, through the core's one model (`AndroidIdentity`, `AppLinksPrediction`).
struct AndroidArtifactAudit {
    let artifact: AndroidArtifact
    let target: AppArtifactTarget

    /// The keys a device compares statements with: an APK's signing history; for an AAB (signed by its upload
    /// key, which Google Play replaces) or a manifest alone, the `--fingerprint`s given; nil without any.
    var keys: SigningCertificateHistory? {
        if artifact.kind == .apk, let history = artifact.signatures?.history(), !history.current.isEmpty { return history }
        if artifact.kind == .apk, artifact.signatures != nil { return nil }
        return target.fingerprints.isEmpty ? nil : SigningCertificateHistory(current: target.fingerprints)
    }

    /// Why there are no keys to verify with.
    var missingKeys: ArtifactVerdict {
        switch artifact.kind {
        case .apk: .nothingToJudge("the APK is unsigned: Android installs no unsigned APK, and no statement can name its key")
        case .aab:
            .notGiven(
                "give --fingerprint: an AAB is signed by its upload key, and Google Play signs the app users install with its app-signing key, whose fingerprint the Play Console shows"
            )
        default: .notGiven("give --fingerprint: a manifest alone carries no signature")
        }
    }

    /// The app as a device knows it, signed by `keys`.
    func identity(_ keys: SigningCertificateHistory?) -> AndroidIdentity {
        artifact.manifest.identity(fingerprints: keys?.all ?? [])
    }

    func record(in ledger: AuditLedger) async {
        flipActivity().record(.appAndroidFlipActivity, in: ledger)
        signingKey().record(.appAndroidSigningKey, in: ledger)
        guard let keys else {
            for check in [CheckSpec.appAndroidStatementKey, .appAndroidHostsVerified, .appAndroidLegacyAllHosts] {
                missingKeys.record(check, in: ledger)
            }
            ledger.set(.appLinksKey, .met)
            ledger.set(.appLinksVerified, .met)
            return
        }
        let identity = identity(keys)
        let files = await HostFiles.read(identity.anyGenerationVerificationHosts, target)
        for problem in files.unreachable.values { ledger.unreachable(problem) }
        let statementKey = statementKey(files, keys: keys)
        statementKey.record(.appAndroidStatementKey, in: ledger)
        if case .broke(let why, _) = statementKey {
            ledger.set(.appLinksKey, .brokeRule(.appAndroidStatementKey, why))
        } else {
            ledger.set(.appLinksKey, .met)
        }
        let hostsVerified = hostsVerified(identity, files)
        hostsVerified.record(.appAndroidHostsVerified, in: ledger)
        switch hostsVerified {
        case .broke(let why, _): ledger.set(.appLinksVerified, .brokeRule(.appAndroidHostsVerified, why))
        case .couldNotRun(let why): ledger.set(.appLinksVerified, .couldNotRun(.unreachable, why))
        default: ledger.set(.appLinksVerified, .met)
        }
        legacyAllHosts(identity, files).record(.appAndroidLegacyAllHosts, in: ledger)
    }

    // MARK: The App Flip activity

    func flipActivity() -> ArtifactVerdict {
        guard let action = target.androidAction else {
            return .notGiven("give --android-action: the App Flip intent action entered in the Actions console")
        }
        let app = AndroidIdentity(package: artifact.manifest.package, fingerprints: [], activities: Self.intentActivities(artifact.manifest))
        let declared = app.activities.map {
            "\($0.className(in: app.package)): actions \($0.actions), categories \($0.categories), exported \($0.exported)"
        }
        switch app.resolve(action: action, callerPackage: nil) {
        case .success(let activity):
            return .held(
                "\(activity.className(in: app.package)) takes \(action): exported, with \(AndroidActivity.defaultCategory)",
                evidence: declared
            )
        case .failure(let refusal):
            return .broke("\(refusal)", evidence: declared)
        }
    }

    /// Every filter an intent without data can match, as the activity it starts: each enabled activity or
    /// alias once per filter with no scheme and no MIME type (an activity may take App Flip's action in any of
    /// its filters, not only its first).
    static func intentActivities(_ manifest: AndroidManifest) -> [AndroidActivity] {
        manifest.components.filter(\.enabled).flatMap { component in
            component.filters.filter { $0.filter.schemes.isEmpty && $0.mimeTypes.isEmpty }.map { filter in
                AndroidActivity(
                    name: component.name,
                    actions: filter.filter.actions,
                    categories: filter.filter.categories,
                    exported: component.exported
                )
            }
        }
    }

    // MARK: The signing key

    func signingKey() -> ArtifactVerdict {
        guard !target.fingerprints.isEmpty else {
            return .notGiven("give --fingerprint: the app's signing certificate, to compare with the key that signs the artifact")
        }
        switch artifact.kind {
        case .apk: break
        case .aab:
            let upload = artifact.signatures?.history().current.joined(separator: ", ") ?? "none"
            return .nothingToJudge(
                "an AAB is signed by its upload key (\(upload)); Google Play re-signs the app with its app-signing key, so --fingerprint is that key's and is held against the statements (app.android.statement-key), not against the bundle"
            )
        default:
            return .nothingToJudge("a manifest alone carries no signature: give the APK")
        }
        guard let history = artifact.signatures?.history(), !history.current.isEmpty else {
            return .broke("the APK is unsigned: Android installs no unsigned APK, and no --fingerprint can name its key")
        }
        let evidence = [
            "current: " + history.current.joined(separator: ", "),
            "past (lineage): " + (history.past.isEmpty ? "none" : history.past.joined(separator: ", ")),
        ]
        let current = target.fingerprints.filter { history.role(of: $0) == .current }
        if !current.isEmpty {
            return .held("\(current.joined(separator: ", ")) signs the APK now", evidence: evidence)
        }
        let past = target.fingerprints.filter { history.role(of: $0) == .past }
        if !past.isEmpty {
            return .broke(
                "--fingerprint \(past.joined(separator: ", ")) is a past key of the APK's rotation lineage; it is signed now by \(history.current.joined(separator: ", "))",
                evidence: evidence
            )
        }
        return .broke(
            "the APK is signed by \(history.current.joined(separator: ", ")), not by --fingerprint \(target.fingerprints.joined(separator: ", "))",
            evidence: evidence
        )
    }

    // MARK: The statements and the verification

    /// Each read host's statements name a key of `keys` for the package; for an AAB, naming only its upload
    /// key is called out.
    func statementKey(_ files: HostFiles, keys: SigningCertificateHistory) -> ArtifactVerdict {
        let package = artifact.manifest.package
        var named: [String] = []
        var missing: [String] = []
        for host in files.hosts {
            guard let lists = files.statementLists[host], !lists.isEmpty else { continue }
            let statements = lists.flatMap(\.googleStatements)
            if let statement = statements.first(where: { $0.delegatesLinks(toPackage: package, signedBy: keys.all) }),
                case .androidApp(_, let written) = statement.target
            {
                let roles = written.compactMap { fingerprint in keys.role(of: fingerprint).map { "\(fingerprint) (\($0.rawValue) key)" } }
                named.append("\(host): statement \(statement.pointer) names \(roles.joined(separator: ", "))")
                continue
            }
            let others = statements.compactMap { statement -> [String]? in
                guard case .androidApp(let name, let written) = statement.target, name == package else { return nil }
                return written
            }.flatMap { $0 }
            var why = others.isEmpty ? "no statement names \(package)" : "\(package) is named with \(others.joined(separator: ", "))"
            if artifact.kind == .aab, let upload = artifact.signatures?.history().current, others.contains(where: upload.contains) {
                why += ", the AAB's upload key: Google Play re-signs the app with its app-signing key (--fingerprint), which devices compare"
            }
            missing.append("\(host): \(why), not with \(keys.all.joined(separator: ", ")) (compared exactly)")
        }
        if !missing.isEmpty {
            return .broke(missing.joined(separator: "; "), evidence: named + missing)
        }
        if named.isEmpty {
            if let unreachable = files.unreachable.values.first { return .couldNotRun(unreachable) }
            return .nothingToJudge(
                "no assetlinks.json of the app's App Links hosts was read (app.android.hosts-verified says why), or it asks to verify none"
            )
        }
        return .held("every App Links host read delegates to \(package) with a key it is signed with", evidence: named)
    }

    /// Android 12+: every autoVerify host verified by both verifiers, on 12–14 and 15.
    func hostsVerified(_ identity: AndroidIdentity, _ files: HostFiles) -> ArtifactVerdict {
        let hosts = identity.verificationHosts
        guard !hosts.isEmpty else { return .nothingToJudge("no intent filter of the app asks to verify a host (android:autoVerify=\"true\")") }
        if let unreachable = hosts.compactMap({ files.unreachable[$0] }).first { return .couldNotRun(unreachable) }
        return judge(identity, files, generations: [.android12, .android15], hosts: hosts) { failing in
            "\(failing.count) state(s) not verified on Android 12+: " + failing.joined(separator: "; ")
        }
    }

    /// Android 6–11: the app verified for every web host or for none.
    func legacyAllHosts(_ identity: AndroidIdentity, _ files: HostFiles) -> ArtifactVerdict {
        let hosts = identity.verificationHosts(on: .android11AndEarlier)
        guard !hosts.isEmpty else { return .nothingToJudge("no intent filter of the app asks to verify a host (android:autoVerify=\"true\")") }
        if let unreachable = hosts.compactMap({ files.unreachable[$0] }).first { return .couldNotRun(unreachable) }
        return judge(identity, files, generations: [.android11AndEarlier], hosts: hosts) { failing in
            "Android 11 and earlier verify the app for all of \(hosts.joined(separator: ", ")) or for none (pm get-app-link: \(LegacyLinkStatus.ask.rawValue)): "
                + failing.joined(separator: "; ")
        }
    }

    /// Each verifier's predicted `pm get-app-links` state of each host on `generations`: held when all are
    /// verified, broken when one is not, nothing to judge when appflip could not judge one and none failed.
    private func judge(
        _ identity: AndroidIdentity,
        _ files: HostFiles,
        generations: [AndroidGeneration],
        hosts: [String],
        failure: ([String]) -> String
    ) -> ArtifactVerdict {
        var lines: [String] = []
        var failing: [String] = []
        var unjudged: [String] = []
        for verifier in AppLinkVerifier.allCases {
            for generation in generations {
                let verdicts = AppLinksPrediction.verdicts(for: identity, verifier: verifier, generation: generation, responses: files.responses)
                for host in hosts {
                    let verdict = verdicts[host] ?? HostVerdict(state: .none, reason: "not verified")
                    let line = "\(host) \(verifier.rawValue) \(generation.rawValue): \(verdict.state) (\(verdict.reason))"
                    lines.append(line)
                    switch verdict.state {
                    case .verified: break
                    case .couldNotJudge: unjudged.append(line)
                    default: failing.append(line)
                    }
                }
            }
        }
        if !failing.isEmpty { return .broke(failure(failing), evidence: lines) }
        if !unjudged.isEmpty { return .nothingToJudge("appflip could not judge: " + unjudged.joined(separator: "; ")) }
        return .held("\(hosts.joined(separator: ", ")): verified by both verifiers", evidence: lines)
    }
}

/// The assetlinks.json of each App Links host, as Android's verifiers read it: fetched from the host with its
/// includes, or the local `--assetlinks-file` standing for every host's.
struct HostFiles {
    var hosts: [String] = []
    /// Every response by the URL the verifiers know it by.
    var responses: [String: FetchResult] = [:]
    /// The statement lists read (200 answers read whole), by host.
    var statementLists: [String: [StatementList]] = [:]
    /// Why a host's own file could not be fetched, by host.
    var unreachable: [String: String] = [:]

    static func read(_ hosts: [String], _ target: AppArtifactTarget) async -> HostFiles {
        var files = HostFiles(hosts: hosts)
        let local: (path: String, body: [UInt8])?
        do {
            local = try target.assetLinksFile.map { ($0, try AssociationTarget.read($0, "the assetlinks file")) }
        } catch {
            for host in hosts { files.unreachable[host] = "\(error)" }
            return files
        }
        for host in hosts {
            // A wildcard host is verified with its apex's file (StatementService, Google's verifier).
            let site = host.hasPrefix("*.") ? String(host.dropFirst(2)) : host
            let fetches: [HostedFetch]
            if let local {
                fetches = [.local(local.body, url: HostingPolicy.assetLinks.wellKnownURL(host: site), path: local.path)]
            } else {
                do {
                    fetches = try await HostedFileFetcher(policy: .assetLinks, options: target.assetLinksFetch)
                        .fetch(host: site, includes: AssetLinksFileCheck.includes(of:))
                } catch {
                    files.unreachable[host] = "the assetlinks file of \(site): \(error)"
                    continue
                }
            }
            switch fetches.first?.result {
            case .failed(let reason), .malformedHTTP(let reason):
                files.unreachable[host] = "the assetlinks file of \(site): \(reason)"
                continue
            default: break
            }
            for fetch in fetches where files.responses[fetch.url] == nil { files.responses[fetch.url] = fetch.verifierResult }
            files.statementLists[host] = fetches.compactMap { fetch in
                guard case .response(let response) = fetch.verifierResult, response.status == 200, response.cutAt == nil else { return nil }
                return StatementList(json: response.body)
            }
        }
        return files
    }
}
