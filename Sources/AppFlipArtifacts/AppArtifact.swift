/// An app artifact read for what it declares, whichever platform it is for: what `appflip audit --app`
/// judges. The kinds are told apart as `appflip app inspect` tells them (docs/artifacts.md): a zip by its
/// entries, an iOS file by `IOSArtifacts`' detection, then an Android manifest by its form.
public enum AppArtifact: Sendable {
    case android(AndroidArtifact)
    case ios(IOSArtifactKind, IOSApp)

    /// Reads the artifact at `path`; a file that is no artifact, or that its reader refuses, throws.
    public static func read(path: String) throws -> AppArtifact {
        let source = try FileBytes(path: path)
        let head = try source.read(at: 0, count: min(source.count, 4096))
        if head.starts(with: [0x50, 0x4B]) {
            let archive = try ArtifactArchive(source: source)
            if try archive.contains(AndroidArtifactReader.apkManifest) { return .android(try AndroidArtifactReader.readAPK(archive)) }
            if try archive.contains(AndroidArtifactReader.bundleManifest) { return .android(try AndroidArtifactReader.readAAB(archive)) }
        }
        if let (kind, app) = try IOSArtifacts.read(path: path) { return .ios(kind, app) }
        guard let kind = AndroidArtifactReader.manifestKind(head) else {
            throw ArtifactError(
                "file",
                file: path,
                offset: 0,
                "not an app artifact: an APK, an AAB, an AndroidManifest.xml, an .ipa, a provisioning profile, a Mach-O executable, an entitlements file or an Info.plist"
            )
        }
        return .android(try AndroidArtifactReader.readManifest(path: path, kind: kind))
    }
}

extension AndroidArtifactReader {
    /// The largest manifest read on its own.
    public static let maxManifestBytes = 8 << 20

    /// The form of a manifest on its own, from its first bytes (not a zip's): binary XML, source text, or
    /// aapt2's protobuf `XmlNode`, whose first byte is its `element` field's tag (1, length-delimited) — tried
    /// last, as that byte is common.
    public static func manifestKind(_ head: [UInt8]) -> AndroidArtifact.Kind? {
        if BinaryXMLReader.looksLikeBinaryXML(head) { return .binaryManifest }
        if String(decoding: head, as: UTF8.self).contains("<manifest") { return .sourceManifest }
        return head.first == 0x0A ? .protoManifest : nil
    }

    /// The manifest file at `path`, in the form `kind` names, read whole when it is at most
    /// ``maxManifestBytes``; references stay unresolved.
    public static func readManifest(path: String, kind: AndroidArtifact.Kind) throws -> AndroidArtifact {
        let source = try FileBytes(path: path)
        guard source.count <= maxManifestBytes else {
            throw ArtifactError("file", file: path, "\(source.count) bytes, over the limit of \(maxManifestBytes) for a manifest")
        }
        return try readManifest(try source.readAll(), kind: kind, file: path)
    }
}
