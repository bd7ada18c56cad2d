/// Reads an `.ipa`: a zip archive holding one app bundle, `Payload/NAME.app/`, as Xcode exports it, with the
/// bundle's `Info.plist`, its `embedded.mobileprovision` and the executable that `CFBundleExecutable` names
/// (Apple, "Bundle Structures": an iOS app bundle is flat). Only the central directory and those three entries
/// are read; the executable is inflated as a stream and only its headers, load commands and signatures are kept.
enum IPAReader {
    /// The largest executable read. Apple limits an app's executable code (`__TEXT`) to 500 MB for iOS 9 and
    /// later (App Store Connect Help, "Maximum build file sizes"); this leaves room for its data and symbols.
    static let maximumExecutableSize = 1 << 30

    static func read(_ source: some ArtifactBytes) throws(ArtifactError) -> IOSApp {
        let directory = try ZipDirectory(source)
        let reader = ZipEntryReader(source: source, directory: directory)
        let bundle = try appBundle(directory, in: source.name)
        // Names are unique: the directory refuses a repeated one.
        let entries = Dictionary(directory.entries.map { ($0.name, $0) }) { first, _ in first }
        guard let infoEntry = entries[bundle + "Info.plist"] else {
            throw ArtifactError("IPA", file: source.name, offset: nil, "\(bundle) has no Info.plist")
        }
        let info = try InfoPlist(bytes: reader.read(infoEntry, limit: PropertyListReader.maximumSize), file: infoEntry.name)
        var app = IOSApp(infoPlist: IOSApp.Read(entry: infoEntry.name, value: info))
        if let profileEntry = entries[bundle + "embedded.mobileprovision"] {
            let profile = try ProvisioningProfile(bytes: reader.read(profileEntry, limit: ProvisioningProfile.maximumSize), file: profileEntry.name)
            app.profile = IOSApp.Read(entry: profileEntry.name, value: profile)
        }
        guard let executable = info.executable, !executable.contains("/") else {
            throw ArtifactError(
                "IPA",
                file: infoEntry.name,
                offset: nil,
                "CFBundleExecutable is missing or names a path, so the executable cannot be found"
            )
        }
        guard let executableEntry = entries[bundle + executable] else {
            throw ArtifactError(
                "IPA",
                file: source.name,
                offset: nil,
                "the executable \(bundle + executable) that CFBundleExecutable names is not in the archive"
            )
        }
        var stream = try MachOStream(size: executableEntry.uncompressedSize, name: executableEntry.name)
        try reader.stream(executableEntry, limit: maximumExecutableSize) { chunk throws(ArtifactError) in try stream.consume(chunk) }
        app.executable = IOSApp.Read(entry: executableEntry.name, value: try stream.finish())
        return app
    }

    /// `Payload/NAME.app/`: the one app bundle at the top of Payload.
    private static func appBundle(_ directory: ZipDirectory, in file: String) throws(ArtifactError) -> String {
        let bundles = bundles(directory)
        guard bundles.count == 1, let bundle = bundles.first else {
            let found = bundles.isEmpty ? "none" : bundles.sorted().joined(separator: ", ")
            throw ArtifactError("IPA", file: file, offset: nil, "an .ipa holds exactly one Payload/NAME.app/; this one holds \(found)")
        }
        return bundle
    }

    /// Every `Payload/NAME.app/` the entries' names start with.
    static func bundles(_ directory: ZipDirectory) -> Set<String> {
        var bundles: Set<String> = []
        for entry in directory.entries {
            let parts = entry.name.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
            if parts.count >= 2, parts[0] == "Payload", parts[1].hasSuffix(".app"), parts[1].count > 4 {
                bundles.insert("Payload/\(parts[1])/")
            }
        }
        return bundles
    }
}
