public import AppFlipCore

/// An Android artifact read: an APK, an Android App Bundle, or a manifest on its own, with what it declares
/// and, for the archives, how it is signed.
public struct AndroidArtifact: Sendable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case apk
        case aab
        /// A compiled `AndroidManifest.xml` (binary XML) on its own.
        case binaryManifest = "binary-manifest"
        /// An aapt2 protobuf `AndroidManifest.xml` on its own.
        case protoManifest = "proto-manifest"
        /// A source `AndroidManifest.xml`.
        case sourceManifest = "source-manifest"
    }

    public let kind: Kind
    public let file: String
    public let manifest: AndroidManifest
    /// The signatures: every scheme for an APK; for a bundle, its JAR signature by the upload key; nil for a
    /// manifest alone.
    public let signatures: APKSignatures?
    /// The resource table references resolved through: `resources.arsc`, `base/resources.pb`, or nil.
    public let resourceTable: String?

    /// The app as the daemon would know it: package, the fingerprints Android compares statements with, the
    /// enabled activities by their first filter without `<data>` (what explicit intents resolve by), and the
    /// enabled components' filters that can take a link (a scheme, no MIME type), in manifest order.
    public func identity() -> AndroidIdentity {
        manifest.identity(fingerprints: signatures?.history().all ?? [])
    }
}

extension AndroidManifest {
    /// See ``AndroidArtifact/identity()``.
    public func identity(fingerprints: [String]) -> AndroidIdentity {
        let enabled = components.filter(\.enabled)
        let activities = enabled.compactMap { component -> AndroidActivity? in
            // The daemon's model holds one filter an activity; the one an intent from another app can reach is
            // the one with CATEGORY_DEFAULT (startActivity adds it), so a launcher filter before it does not hide it.
            let plain = component.filters.filter { $0.filter.schemes.isEmpty && $0.mimeTypes.isEmpty }
            guard let filter = plain.first(where: { $0.filter.categories.contains(AndroidActivity.defaultCategory) }) ?? plain.first
            else { return nil }
            return AndroidActivity(
                name: component.name,
                actions: filter.filter.actions,
                categories: filter.filter.categories,
                exported: component.exported
            )
        }
        let links = enabled.flatMap(\.filters).filter { !$0.filter.schemes.isEmpty && $0.mimeTypes.isEmpty }.map(\.filter)
        return AndroidIdentity(package: package, fingerprints: fingerprints, activities: activities, intentFilters: links)
    }
}

/// Reads Android artifacts.
public enum AndroidArtifactReader {
    /// The entry of an APK holding its manifest.
    public static let apkManifest = "AndroidManifest.xml"
    /// The entry of a bundle holding its base module's manifest.
    public static let bundleManifest = "base/manifest/AndroidManifest.xml"

    /// An APK: its binary manifest, resolved through `resources.arsc`, and its signatures.
    public static func readAPK(_ archive: ArtifactArchive, limits: XMLLimits = .standard) throws -> AndroidArtifact {
        try read(archive, kind: .apk, manifest: apkManifest, table: "resources.arsc") { bytes, entry in
            (try BinaryXMLReader.read(bytes, file: entry, limits: limits), .binary)
        } resources: { bytes, entry in
            try ResourceTable(bytes, file: entry)
        }
    }

    /// An Android App Bundle: its base module's protobuf manifest, resolved through `base/resources.pb`, and
    /// its JAR signature (the upload key's).
    public static func readAAB(_ archive: ArtifactArchive, limits: XMLLimits = .standard) throws -> AndroidArtifact {
        try read(archive, kind: .aab, manifest: bundleManifest, table: "base/resources.pb") { bytes, entry in
            (try ProtoXMLReader.read(bytes, file: entry, limits: limits), .proto)
        } resources: { bytes, entry in
            try ProtoResourceTable(bytes, file: entry)
        }
    }

    /// An archive's manifest entry, read by `xml`, its references resolved through the `table` entry when
    /// there is one, and its signatures.
    private static func read(
        _ archive: ArtifactArchive,
        kind: AndroidArtifact.Kind,
        manifest name: String,
        table tableName: String,
        xml: ([UInt8], String) throws -> (AndroidXMLElement, AndroidManifest.Form),
        resources: ([UInt8], String) throws -> any ResourceResolver
    ) throws -> AndroidArtifact {
        guard let manifest = try archive.directory.entry(named: name) else {
            throw ArtifactError(
                "zip central directory",
                file: archive.file,
                offset: archive.directory.centralDirectoryOffset,
                "no \(name) entry: not an \(kind == .apk ? "APK" : "Android App Bundle")"
            )
        }
        let entry = archive.file(of: manifest)
        let (root, form) = try xml(try archive.read(manifest), entry)
        let table = try archive.directory.entry(named: tableName).map { table in try resources(try archive.read(table), archive.file(of: table)) }
        return AndroidArtifact(
            kind: kind,
            file: archive.file,
            manifest: try AndroidManifestReader.read(root, form: form, resources: table, file: entry),
            signatures: try APKSignatures.read(archive),
            resourceTable: table == nil ? nil : tableName
        )
    }

    /// A manifest on its own, in the form `kind` names; references stay unresolved (no resource table).
    public static func readManifest(
        _ bytes: [UInt8],
        kind: AndroidArtifact.Kind,
        file: String,
        limits: XMLLimits = .standard
    ) throws -> AndroidArtifact {
        let root: AndroidXMLElement
        let form: AndroidManifest.Form
        switch kind {
        case .binaryManifest: (root, form) = (try BinaryXMLReader.read(bytes, file: file, limits: limits), .binary)
        case .protoManifest: (root, form) = (try ProtoXMLReader.read(bytes, file: file, limits: limits), .proto)
        default: (root, form) = (try SourceXMLReader.read(bytes, file: file, limits: limits), .source)
        }
        let manifest = try AndroidManifestReader.read(root, form: form, resources: nil, file: file)
        return AndroidArtifact(kind: kind, file: file, manifest: manifest, signatures: nil, resourceTable: nil)
    }
}
