/// An `<intent-filter>` as the `android` object writes it, in the manifest's own shape: `autoVerify`,
/// `actions`, `categories`, and `data`, a list of `<data>` elements whose attributes a filter merges.
///
/// `actions` and `categories` have no defaults, as in a manifest: a filter without BROWSABLE never takes a
/// link from a browser, and writing it out keeps that visible.
extension IntentFilter: Codable {
    private enum CodingKeys: String, CodingKey {
        case autoVerify, actions, categories, data
    }

    /// One `<data>` element.
    struct DataElement: Codable {
        var scheme: String?
        var host: String?
        var port: Int?
        var path: String?
        var pathPrefix: String?
        var pathPattern: String?
        var pathAdvancedPattern: String?
        var pathSuffix: String?

        /// The element's path attributes, each with its `PatternMatcher` type.
        var pathPatterns: [(key: String, pattern: String, kind: PatternMatcher.Kind)] {
            let attributes: [(String, String?, PatternMatcher.Kind)] = [
                ("path", path, .literal), ("pathPrefix", pathPrefix, .prefix), ("pathPattern", pathPattern, .simpleGlob),
                ("pathAdvancedPattern", pathAdvancedPattern, .advancedGlob), ("pathSuffix", pathSuffix, .suffix),
            ]
            return attributes.compactMap { key, value, kind in value.map { (key, $0, kind) } }
        }
    }

    /// Decodes the filter; a `<data>` element whose `port` has no `host`, or whose advanced pattern
    /// `PatternMatcher` refuses, is refused at its path (`data[1].port`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        autoVerify = try container.decodeIfPresent(Bool.self, forKey: .autoVerify) ?? false
        actions = try container.decode([String].self, forKey: .actions)
        categories = try container.decodeIfPresent([String].self, forKey: .categories) ?? []
        let data = try container.decode([DataElement].self, forKey: .data)
        schemes = []
        authorities = []
        paths = []
        for (index, element) in data.enumerated() {
            func refuse(_ key: String, _ message: String) -> DecodingError {
                IntentProblem(field: "data[\(index)].\(key)", message).decodingError(under: container.codingPath)
            }
            if let scheme = element.scheme {
                guard !scheme.isEmpty else { throw refuse("scheme", "must be a non-empty scheme, such as https") }
                if !schemes.contains(scheme) { schemes.append(scheme) }
            }
            if let host = element.host {
                guard !host.isEmpty, !host.contains(where: { $0 == "/" || $0 == ":" || $0 == " " }) else {
                    throw refuse("host", "must be a host name, example.com or *.example.com, without a scheme, port or path")
                }
                if let port = element.port, !(1...65535).contains(port) { throw refuse("port", "must be between 1 and 65535") }
                authorities.append(Authority(host: host, port: element.port))
            } else if element.port != nil {
                throw refuse("port", "a port counts only with a host in the same <data> element (IntentFilter.addDataAuthority)")
            }
            for (key, pattern, kind) in element.pathPatterns {
                do {
                    paths.append(try PatternMatcher(pattern, kind: kind))
                } catch {
                    throw refuse(key, "PatternMatcher refuses it: \(error.reason)")
                }
            }
        }
        guard !schemes.isEmpty else {
            throw IntentProblem(field: "data", "must name at least one scheme (https)").decodingError(under: container.codingPath)
        }
    }

    /// Encodes the filter with one `<data>` element per scheme, authority and path: the same merged filter.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(autoVerify, forKey: .autoVerify)
        try container.encode(actions, forKey: .actions)
        try container.encode(categories, forKey: .categories)
        var data = schemes.map { DataElement(scheme: $0) }
        data += authorities.map { DataElement(host: $0.host, port: $0.port) }
        for matcher in paths {
            var element = DataElement()
            switch matcher.kind {
            case .literal: element.path = matcher.pattern
            case .prefix: element.pathPrefix = matcher.pattern
            case .simpleGlob: element.pathPattern = matcher.pattern
            case .advancedGlob: element.pathAdvancedPattern = matcher.pattern
            case .suffix: element.pathSuffix = matcher.pattern
            }
            data.append(element)
        }
        try container.encode(data, forKey: .data)
    }
}
