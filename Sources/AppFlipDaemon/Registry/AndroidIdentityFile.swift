import AppFlipConfiguration
import AppFlipCore

/// The `android` object of an app file: an `AndroidIdentity`'s members, decoded strictly, and the statement
/// list files of its App Links hosts. The protocol's `register` ignores keys it does not know; a configuration
/// file refuses them, so that a typo (`exproted`, `pathPrefx`) is not an activity silently left unexported
/// or a filter silently taking every path.
///
/// Each member is optional here: beside an `artifact` the artifact declares them, and a member written by hand
/// is held to it (``ArtifactIdentityRules``); without one the app file decodes the whole `AndroidIdentity`,
/// whose own checks apply.
struct AndroidIdentityFile: Decodable, Sendable {
    var package: String?
    var fingerprints: [String]?
    var activities: [AndroidActivity]?
    var intentFilters: [IntentFilter]?
    /// `assetLinks`: host → a statement list file, relative to the app file.
    var assetLinks: [String: String]

    /// The keys `AndroidIdentity` decodes, and `assetLinks`.
    private enum IdentityKey: String, CodingKey, CaseIterable {
        case package, fingerprints, activities, intentFilters, assetLinks
    }

    /// The keys `AndroidActivity` decodes.
    private enum ActivityKey: String, CodingKey, CaseIterable {
        case name, actions, categories, exported
    }

    /// The keys `IntentFilter` decodes.
    private enum FilterKey: String, CodingKey, CaseIterable {
        case autoVerify, actions, categories, data
    }

    /// The attributes of a `<data>` element.
    private enum DataKey: String, CodingKey, CaseIterable {
        case scheme, host, port, path, pathPrefix, pathPattern, pathAdvancedPattern, pathSuffix
    }

    /// Refuses an `activities` entry with a key it does not have.
    private struct StrictActivity: Decodable {
        init(from decoder: any Decoder) throws {
            _ = try decoder.strictContainer(keyedBy: ActivityKey.self)
        }
    }

    /// Refuses an `intentFilters` entry, or one of its `data` elements, with a key it does not have.
    private struct StrictFilter: Decodable {
        private struct StrictData: Decodable {
            init(from decoder: any Decoder) throws {
                _ = try decoder.strictContainer(keyedBy: DataKey.self)
            }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(keyedBy: FilterKey.self)
            _ = try container.decodeIfPresent([StrictData].self, forKey: .data)
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: IdentityKey.self)
        _ = try container.decodeIfPresent([StrictActivity].self, forKey: .activities)
        _ = try container.decodeIfPresent([StrictFilter].self, forKey: .intentFilters)
        assetLinks = try container.decodeIfPresent([String: String].self, forKey: .assetLinks) ?? [:]
        package = try container.decodeIfPresent(String.self, forKey: .package)
        fingerprints = try container.decodeIfPresent([String].self, forKey: .fingerprints)
        activities = try container.decodeIfPresent([AndroidActivity].self, forKey: .activities)
        intentFilters = try container.decodeIfPresent([IntentFilter].self, forKey: .intentFilters)
    }
}
