import AppFlipCore

/// Builds an ``AndroidManifest`` from a manifest's XML, whichever its form, as the package parser does:
/// `ParsingPackageUtils.parseBaseApk` for `<manifest>` and `<uses-sdk>`, `ParsedActivityUtils` for
/// activities and aliases, `ParsedIntentInfoUtils` for their filters.
public enum AndroidManifestReader {
    /// The manifest `root` declares. Throws when the root is not `<manifest>`.
    public static func read(
        _ root: AndroidXMLElement,
        form: AndroidManifest.Form,
        resources: (any ResourceResolver)?,
        file: String
    ) throws -> AndroidManifest {
        guard root.name == "manifest", root.namespace == nil else {
            throw ArtifactError("AndroidManifest.xml", file: file, "the root element is <\(root.name)>, not <manifest>")
        }
        var values = ManifestValues(form: form, resources: resources)
        let path = "manifest"
        let package = values.rawValue(root, namespace: nil, name: "package") ?? ""
        if let problem = AndroidPackageName.problem(with: package) {
            values.notes.append(ManifestNote(severity: .installFails, element: path, message: "package: \(problem)"))
        }
        var manifest = AndroidManifest(form: form, package: package)
        if case .level(let code)? = try values.integerOrString(root, .versionCode, at: path) {
            let major = try values.integerOrString(root, .versionCodeMajor, at: path)
            manifest.versionCode = Int64(major?.level ?? 0) << 32 | Int64(UInt32(truncatingIfNeeded: code))
        }
        manifest.versionName = try values.string(root, .versionName, at: path)
        if let usesSDK = root.children(named: "uses-sdk").first {
            let minSDK = try values.integerOrString(usesSDK, .minSdkVersion, at: path + "/uses-sdk") ?? .level(1)
            manifest.minSDK = minSDK
            manifest.targetSDK = try values.integerOrString(usesSDK, .targetSdkVersion, at: path + "/uses-sdk") ?? minSDK
        } else if form == .source {
            values.notes.append(
                ManifestNote(severity: .unknown, element: path, message: "no <uses-sdk>: the build sets minSdk and targetSdk (build.gradle)")
            )
        }
        if let application = root.children(named: "application").first {
            let enabled = try values.boolean(application, .enabled, at: path + "/application") ?? true
            for child in application.children where child.namespace == nil {
                guard let kind = ManifestComponent.Kind(rawValue: child.name) else { continue }
                if let component = try component(child, kind: kind, manifest: manifest, applicationEnabled: enabled, values: &values) {
                    manifest.components.append(component)
                }
            }
        }
        manifest.resolutions = values.resolutions
        manifest.notes = values.notes
        return manifest
    }

    /// An `<activity>` or `<activity-alias>` and its filters, or nil when Android drops it (no name).
    private static func component(
        _ element: AndroidXMLElement,
        kind: ManifestComponent.Kind,
        manifest: AndroidManifest,
        applicationEnabled: Bool,
        values: inout ManifestValues
    ) throws -> ManifestComponent? {
        let unnamed = "manifest/application/\(kind.rawValue)"
        guard let name = try values.string(element, .name, at: unnamed), !name.isEmpty else {
            values.notes.append(ManifestNote(severity: .installFails, element: unnamed, message: "no android:name (\"Empty class name in package\")"))
            return nil
        }
        let path = "manifest/application/\(kind.rawValue)[\(name)]"
        let exportedDeclared = try values.boolean(element, .exported, at: path)
        var filters: [ManifestIntentFilter] = []
        for (index, child) in element.children(named: "intent-filter").enumerated() {
            if let filter = try intentFilter(child, at: "\(path)/intent-filter[\(index + 1)]", targetSDK: manifest.targetSDK, values: &values) {
                filters.append(filter)
            }
        }
        if exportedDeclared == nil, !filters.isEmpty, manifest.targetSDK.level >= 31 {
            values.notes.append(
                ManifestNote(
                    severity: .installFails,
                    element: path,
                    message:
                        "no android:exported on a component with intent filters: \"Targeting S+ (version 31 and above) requires that an explicit value for android:exported be defined when intent filters are present\""
                )
            )
        }
        let enabled = try values.boolean(element, .enabled, at: path) ?? true
        return ManifestComponent(
            kind: kind,
            name: name,
            className: className(name, package: manifest.package),
            targetActivity: kind == .activityAlias ? try values.string(element, .targetActivity, at: path) : nil,
            exported: exportedDeclared ?? !filters.isEmpty,
            exportedDeclared: exportedDeclared,
            enabled: applicationEnabled && enabled,
            filters: filters
        )
    }

    /// `ParsingUtils.buildClassName`: a name starting with `.`, or with no `.`, is relative to the package.
    static func className(_ name: String, package: String) -> String {
        if name.hasPrefix(".") { return package + name }
        return name.contains(".") ? name : package + "." + name
    }
}
