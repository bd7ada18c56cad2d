/// Reads an `.ipa`: a zip archive holding one app bundle, `Payload/NAME.app/`, as Xcode exports it, with the
/// bundle's `Info.plist`, its `embedded.mobileprovision` and the executable that `CFBundleExecutable` names
/// (Apple, "Bundle Structures": an iOS app bundle is flat). Only the central directory and those three entries
/// are read; the executable is inflated as a stream and only its headers, load commands and signatures are kept.
enum IPAReader {
    /// The largest executable read. Apple limits an app's executable code (`__TEXT`) to 500 MB for iOS 9 and
    /// later (App Store Connect Help, "Maximum build file sizes"); this leaves room for its data and symbols.
    static let maximumExecutableSize = 1 << 30

    static func read(_ archive: ArtifactArchive) throws(ArtifactError) -> IOSApp {
        let (bundle, found) = try find(in: archive, ["Info.plist", "embedded.mobileprovision"])
        guard let infoEntry = found["Info.plist"] else {
            throw ArtifactError("IPA", file: archive.file, offset: nil, "\(bundle) has no Info.plist")
        }
        let info = try InfoPlist(bytes: archive.read(infoEntry, limit: PropertyListReader.maximumSize), file: archive.file(of: infoEntry))
        var app = IOSApp(infoPlist: IOSApp.Read(entry: infoEntry.name, value: info))
        if let profileEntry = found["embedded.mobileprovision"] {
            let profile = try ProvisioningProfile(
                bytes: archive.read(profileEntry, limit: ProvisioningProfile.maximumSize),
                file: archive.file(of: profileEntry)
            )
            app.profile = IOSApp.Read(entry: profileEntry.name, value: profile)
        }
        guard let executable = info.executable, !executable.isEmpty, !executable.contains("/") else {
            throw ArtifactError(
                "IPA",
                file: archive.file(of: infoEntry),
                offset: nil,
                "CFBundleExecutable is missing or names a path, so the executable cannot be found"
            )
        }
        guard let executableEntry = try archive.directory.entry(named: bundle + executable) else {
            throw ArtifactError(
                "IPA",
                file: archive.file,
                offset: nil,
                "the executable \(bundle + executable) that CFBundleExecutable names is not in the archive"
            )
        }
        var stream = try MachOStream(size: executableEntry.uncompressedSize, name: archive.file(of: executableEntry))
        try archive.stream(executableEntry, limit: maximumExecutableSize) { chunk throws(ArtifactError) in try stream.consume(chunk) }
        app.executable = IOSApp.Read(entry: executableEntry.name, value: try stream.finish())
        return app
    }

    /// The one app bundle, `Payload/NAME.app/`, and the entries named `files` inside it, in one pass over the
    /// directory: a second bundle is refused, since two readers could then take different apps. (A second
    /// entry of one name is refused when the archive is opened.)
    private static func find(in archive: ArtifactArchive, _ files: [String]) throws(ArtifactError) -> (bundle: String, found: [String: ZipEntry]) {
        var bundle: String?
        var found: [String: ZipEntry] = [:]
        try archive.directory.forEach { entry throws(ArtifactError) in
            guard let prefix = bundlePrefix(entry.name) else { return true }
            if let bundle, bundle != prefix {
                throw ArtifactError(
                    "IPA",
                    file: archive.file,
                    offset: nil,
                    "an .ipa holds exactly one Payload/NAME.app/; this one holds \(bundle) and \(prefix)"
                )
            }
            bundle = prefix
            let file = String(entry.name.dropFirst(prefix.count))
            if files.contains(file) { found[file] = entry }
            return true
        }
        guard let bundle else {
            throw ArtifactError("IPA", file: archive.file, offset: nil, "an .ipa holds exactly one Payload/NAME.app/; this one holds none")
        }
        return (bundle, found)
    }

    /// `Payload/NAME.app/` when `name` lies in one.
    private static func bundlePrefix(_ name: String) -> String? {
        let parts = name.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "Payload", parts[1].hasSuffix(".app"), parts[1].count > 4 else { return nil }
        return "Payload/\(parts[1])/"
    }

    /// Whether the archive holds a `Payload/NAME.app/` entry: what tells an .ipa from another zip (an APK).
    static func holdsAppBundle(_ archive: ArtifactArchive) throws(ArtifactError) -> Bool {
        var holds = false
        try archive.directory.forEach { entry throws(ArtifactError) in
            holds = bundlePrefix(entry.name) != nil
            return !holds
        }
        return holds
    }
}
