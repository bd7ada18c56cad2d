import AppFlipCore

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
        let kind: AndroidArtifact.Kind
        if BinaryXMLReader.looksLikeBinaryXML(head) {
            kind = .binaryManifest
        } else if String(decoding: head, as: UTF8.self).contains("<manifest") {
            kind = .sourceManifest
        } else if head.first == 0x0A {
            kind = .protoManifest
        } else {
            throw ArtifactError(
                "file",
                file: path,
                offset: 0,
                "not an app artifact: an APK, an AAB, an AndroidManifest.xml, an .ipa, a provisioning profile, a Mach-O executable, an entitlements file or an Info.plist"
            )
        }
        guard source.count <= AndroidArtifactReader.maxManifestBytes else {
            throw ArtifactError("file", file: path, "\(source.count) bytes, over the limit of \(AndroidArtifactReader.maxManifestBytes) for a manifest")
        }
        return .android(try AndroidArtifactReader.readManifest(try source.readAll(), kind: kind, file: path))
    }
}

extension AndroidArtifactReader {
    /// The largest manifest read on its own.
    public static let maxManifestBytes = 8 << 20
}
