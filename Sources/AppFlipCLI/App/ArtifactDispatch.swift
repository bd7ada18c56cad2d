import AppFlipArtifacts

/// Which reader takes a file: the kinds `app inspect` tells apart by content, in the order they are tried.
/// The Android rows are read here; the iOS rows are told apart and answered "not read yet" until the
/// `Apple/` readers are wired in.
enum ArtifactDispatch {
    /// What the first bytes and, for a zip, the entry names say.
    struct Probe {
        let head: [UInt8]
        /// The archive, when the file is a zip.
        let archive: ArtifactArchive?
    }

    struct Row: Sendable {
        /// The kind, as `--json`'s `kind` names it.
        let kind: String
        let detect: @Sendable (Probe) -> Bool
        /// Nil: told apart, not read by this build.
        let read: (@Sendable (String, Probe) throws -> AppInspection)?
    }

    static let rows: [Row] = [
        Row(
            kind: "apk",
            detect: { $0.archive?.contains(AndroidArtifactReader.apkManifest) ?? false },
            read: { _, probe in
                AppInspection(try AndroidArtifactReader.readAPK(probe.archive!))
            }
        ),
        Row(
            kind: "aab",
            detect: { $0.archive?.contains(AndroidArtifactReader.bundleManifest) ?? false },
            read: { _, probe in
                AppInspection(try AndroidArtifactReader.readAAB(probe.archive!))
            }
        ),
        Row(kind: "ipa", detect: { $0.archive?.directory.entries.contains { $0.name.hasPrefix("Payload/") } ?? false }, read: nil),
        Row(
            kind: "binary-manifest",
            detect: { BinaryXMLReader.looksLikeBinaryXML($0.head) },
            read: { file, _ in
                try manifest(file, kind: .binaryManifest)
            }
        ),
        Row(kind: "mobileprovision", detect: { $0.head.starts(with: [0x30, 0x80]) || $0.head.starts(with: [0x30, 0x82]) }, read: nil),
        Row(kind: "plist", detect: { text($0.head).contains("<plist") || $0.head.starts(with: Array("bplist".utf8)) }, read: nil),
        Row(
            kind: "source-manifest",
            detect: { text($0.head).contains("<manifest") },
            read: { file, _ in
                try manifest(file, kind: .sourceManifest)
            }
        ),
        // aapt2's XmlNode starts with its `element` field (1, length-delimited): tried last, as that byte is common.
        Row(
            kind: "proto-manifest",
            detect: { $0.archive == nil && $0.head.first == 0x0A },
            read: { file, _ in
                try manifest(file, kind: .protoManifest)
            }
        ),
    ]

    /// The largest manifest read on its own.
    static let maxManifestBytes = 8 << 20

    /// Reads `file` with the first row that recognises it.
    static func inspect(_ file: String) throws -> AppInspection {
        let source = try FileBytes(path: file)
        let head = try source.read(0..<min(source.count, 4096))
        let archive = head.starts(with: [0x50, 0x4B]) ? try ArtifactArchive(path: file) : nil
        let probe = Probe(head: head, archive: archive)
        guard let row = rows.first(where: { $0.detect(probe) }) else {
            throw ArtifactError("file", file: file, offset: 0, "not an APK, an AAB or an AndroidManifest.xml")
        }
        guard let read = row.read else {
            throw ArtifactError("file", file: file, "a \(row.kind): this build reads Android artifacts only")
        }
        return try read(file, probe)
    }

    private static func manifest(_ file: String, kind: AndroidArtifact.Kind) throws -> AppInspection {
        let source = try FileBytes(path: file)
        guard source.count <= maxManifestBytes else {
            throw ArtifactError("file", file: file, "\(source.count) bytes, over the limit of \(maxManifestBytes) for a manifest")
        }
        return AppInspection(try AndroidArtifactReader.readManifest(try source.read(0..<source.count), kind: kind, file: file))
    }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
