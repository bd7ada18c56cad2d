import AppFlipCore

extension AndroidManifestReader {
    /// An `<intent-filter>`, or nil when Android drops it: a filter without an action ("No actions in
    /// intent filter", `ParsedActivityUtils`).
    static func intentFilter(
        _ element: AndroidXMLElement,
        at path: String,
        targetSDK: SDKVersion,
        values: inout ManifestValues
    ) throws -> ManifestIntentFilter? {
        var actions: [String] = []
        var categories: [String] = []
        var data = DataElements()
        let autoVerify = try values.boolean(element, .autoVerify, at: path) ?? false
        var counts: [String: Int] = [:]
        for child in element.children where child.namespace == nil {
            counts[child.name, default: 0] += 1
            let childPath = "\(path)/\(child.name)[\(counts[child.name]!)]"
            switch child.name {
            case "action", "category":
                guard let name = values.rawValue(child, namespace: AndroidAttribute.namespace, name: "name") else {
                    values.notes.append(ManifestNote(severity: .installFails, element: childPath, message: "No value supplied for <android:name>"))
                    continue
                }
                if name.isEmpty {
                    values.notes.append(
                        ManifestNote(
                            severity: targetSDK.level >= 30 ? .installFails : .ignored,
                            element: childPath,
                            message: "an empty android:name (an error from Android 11 targets)"
                        )
                    )
                }
                if child.name == "action" { actions.append(name) } else { categories.append(name) }
            case "data":
                try data.add(child, at: childPath, values: &values)
            default: continue
            }
        }
        guard !actions.isEmpty else {
            values.notes.append(ManifestNote(severity: .ignored, element: path, message: "No actions in intent filter: Android drops it"))
            return nil
        }
        if data.authorities.isEmpty, data.schemes.contains(where: { $0 == "http" || $0 == "https" }), data.mimeTypes.isEmpty {
            values.notes.append(
                ManifestNote(
                    severity: .warning,
                    element: path,
                    message: "an http(s) scheme and no host: the filter matches every web link of its schemes (IntentFilter.matchData)"
                )
            )
        }
        let filter = IntentFilter(
            actions: actions,
            categories: categories,
            autoVerify: autoVerify,
            schemes: data.schemes,
            authorities: data.authorities,
            paths: data.paths
        )
        return ManifestIntentFilter(filter: filter, mimeTypes: data.mimeTypes, schemeSpecificParts: data.schemeSpecificParts)
    }

    /// The `<data>` elements of one filter, merged as `IntentFilter` merges them (`ParsedIntentInfoUtils.parseData`).
    struct DataElements {
        var mimeTypes: [String] = []
        var schemes: [String] = []
        var schemeSpecificParts: [PatternMatcher] = []
        var authorities: [IntentFilter.Authority] = []
        var paths: [PatternMatcher] = []

        static let pathKinds: [(AndroidAttribute, PatternMatcher.Kind)] = [
            (.path, .literal), (.pathPrefix, .prefix), (.pathPattern, .simpleGlob), (.pathAdvancedPattern, .advancedGlob), (.pathSuffix, .suffix),
        ]
        static let sspKinds: [(AndroidAttribute, PatternMatcher.Kind)] = [
            (.ssp, .literal), (.sspPrefix, .prefix), (.sspPattern, .simpleGlob), (.sspAdvancedPattern, .advancedGlob), (.sspSuffix, .suffix),
        ]

        mutating func add(_ element: AndroidXMLElement, at path: String, values: inout ManifestValues) throws {
            if let type = try values.string(element, .mimeType, at: path) { mimeTypes.append(type) }
            if let scheme = try values.string(element, .scheme, at: path), !schemes.contains(scheme) { schemes.append(scheme) }
            schemeSpecificParts += try Self.matchers(element, Self.sspKinds, at: path, values: &values)
            let host = try values.string(element, .host, at: path)
            let port = try values.string(element, .port, at: path)
            if let host {
                if let port, Int(port) == nil {
                    values.notes.append(
                        ManifestNote(
                            severity: .installFails,
                            element: path,
                            message: "android:port \"\(port)\" is not a number (Integer.parseInt throws)"
                        )
                    )
                } else {
                    authorities.append(IntentFilter.Authority(host: host, port: port.flatMap { Int($0) }))
                }
            }
            paths += try Self.matchers(element, Self.pathKinds, at: path, values: &values)
        }

        /// The element's patterns of each kind; a malformed advanced pattern fails the install, as
        /// `PatternMatcher`'s `IllegalArgumentException` does.
        private static func matchers(
            _ element: AndroidXMLElement,
            _ kinds: [(AndroidAttribute, PatternMatcher.Kind)],
            at path: String,
            values: inout ManifestValues
        ) throws -> [PatternMatcher] {
            var matchers: [PatternMatcher] = []
            for (attribute, kind) in kinds {
                guard let pattern = try values.string(element, attribute, at: path) else { continue }
                do {
                    matchers.append(try PatternMatcher(pattern, kind: kind))
                } catch {
                    values.notes.append(
                        ManifestNote(
                            severity: .installFails,
                            element: path,
                            message: "android:\(attribute.name) \"\(pattern)\": PatternMatcher refuses it: \(error.reason)"
                        )
                    )
                }
            }
            return matchers
        }
    }
}
