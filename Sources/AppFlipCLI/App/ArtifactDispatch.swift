import AppFlipArtifacts
import FoundationEssentials

/// Which reader takes a file: the kinds `app inspect` tells apart by content, in the order they are tried
/// (docs/artifacts.md's table). The Android rows read with `AndroidArtifactReader`, the iOS rows with
/// `IOSArtifacts`, whose own detection (content, then a property list's name or keys) tells the iOS kinds apart.
enum ArtifactDispatch {
    /// What the first bytes, the entry names of a zip and the iOS readers say about a file.
    struct Probe {
        let file: String
        let head: [UInt8]
        /// The archive, when the file is a zip.
        let archive: ArtifactArchive?
        /// The iOS kind, when the file is one.
        let iosKind: IOSArtifactKind?
        /// When a profile's expiry is judged.
        let now: Date
    }

    struct Row: Sendable {
        /// The kind, as `--json`'s `kind` names it.
        let kind: String
        let detect: @Sendable (Probe) throws(ArtifactError) -> Bool
        let read: @Sendable (Probe) throws -> any ArtifactReport
    }

    static let rows: [Row] = [
        Row(
            kind: "apk",
            detect: { probe throws(ArtifactError) in try probe.archive?.contains(AndroidArtifactReader.apkManifest) ?? false },
            read: { AppInspection(try AndroidArtifactReader.readAPK($0.archive!)) }
        ),
        Row(
            kind: "aab",
            detect: { probe throws(ArtifactError) in try probe.archive?.contains(AndroidArtifactReader.bundleManifest) ?? false },
            read: { AppInspection(try AndroidArtifactReader.readAAB($0.archive!)) }
        ),
        ios(.ipa),
        Row(
            kind: "binary-manifest",
            detect: { AndroidArtifactReader.manifestKind($0.head) == .binaryManifest },
            read: { AppInspection(try AndroidArtifactReader.readManifest(path: $0.file, kind: .binaryManifest)) }
        ),
        ios(.provisioningProfile),
        ios(.machO),
        ios(.infoPlist),
        ios(.entitlements),
        Row(
            kind: "source-manifest",
            detect: { AndroidArtifactReader.manifestKind($0.head) == .sourceManifest },
            read: { AppInspection(try AndroidArtifactReader.readManifest(path: $0.file, kind: .sourceManifest)) }
        ),
        Row(
            kind: "proto-manifest",
            detect: { $0.archive == nil && AndroidArtifactReader.manifestKind($0.head) == .protoManifest },
            read: { AppInspection(try AndroidArtifactReader.readManifest(path: $0.file, kind: .protoManifest)) }
        ),
    ]

    /// The row of an iOS kind, read by `IOSArtifacts.inspect`.
    private static func ios(_ kind: IOSArtifactKind) -> Row {
        Row(
            kind: kind.rawValue,
            detect: { $0.iosKind == kind },
            read: { probe in
                guard let report = try IOSArtifacts.inspect(path: probe.file, now: probe.now) else {
                    throw ArtifactError("file", file: probe.file, offset: 0, "no longer an iOS artifact")
                }
                return report
            }
        )
    }

    /// Reads `file` with the first row that recognises it, judging a profile's expiry at `now`.
    static func inspect(_ file: String, now: Date) throws -> any ArtifactReport {
        let source = try FileBytes(path: file)
        let head = try source.read(at: 0, count: min(source.count, 4096))
        let archive = head.starts(with: [0x50, 0x4B]) ? try ArtifactArchive(source: source) : nil
        // A property list the iOS readers cannot tell apart is their error, unless another row takes the file.
        let ios = Result { () throws(ArtifactError) in try IOSArtifacts.detect(path: file) }
        let probe = Probe(file: file, head: head, archive: archive, iosKind: (try? ios.get()) ?? nil, now: now)
        for row in rows where try row.detect(probe) {
            return try row.read(probe)
        }
        if case .failure(let error) = ios { throw error }
        throw ArtifactError(
            "file",
            file: file,
            offset: 0,
            "not an artifact app inspect reads: an APK, an AAB, an AndroidManifest.xml, an .ipa, a provisioning profile, a Mach-O executable, an entitlements file or an Info.plist"
        )
    }
}
