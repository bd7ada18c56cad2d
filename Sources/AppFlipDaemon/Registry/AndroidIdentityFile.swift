import AppFlipConfiguration
import AppFlipCore

/// The `android` object of an app file: an `AndroidIdentity`, decoded strictly. The protocol's `register`
/// ignores keys it does not know; a configuration file refuses them, so that a typo (`exproted`) is not
/// an activity silently left unexported.
struct AndroidIdentityFile: Decodable {
    var identity: AndroidIdentity

    /// The keys `AndroidIdentity` decodes.
    private enum IdentityKey: String, CodingKey, CaseIterable {
        case package, fingerprints, activities
    }

    /// The keys `AndroidActivity` decodes.
    private enum ActivityKey: String, CodingKey, CaseIterable {
        case name, actions, categories, exported
    }

    /// Refuses an `activities` entry with a key it does not have.
    private struct StrictActivity: Decodable {
        init(from decoder: any Decoder) throws {
            _ = try decoder.strictContainer(keyedBy: ActivityKey.self)
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: IdentityKey.self)
        _ = try container.decodeIfPresent([StrictActivity].self, forKey: .activities)
        identity = try AndroidIdentity(from: decoder)
    }
}
