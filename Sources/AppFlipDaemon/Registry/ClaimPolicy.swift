import AppFlipConfiguration
import AppFlipCore

/// Who may register live apps, who may claim what a static app or another uid's live app owns, and which
/// Android packages a uid's live apps may be.
public struct ClaimPolicy: Sendable, Hashable, Codable {
    /// The uids allowed to register live apps; `nil` allows every uid that can reach the socket.
    public var registerUIDs: [UInt32]?
    /// The uids whose live apps may take app ids, Android packages and domains owned by static apps or by
    /// other uids' live apps. Their live apps then take precedence over the apps they overlap.
    public var overrideUIDs: [UInt32]
    /// The Android packages each uid's live apps may be, by uid (`"*"`: any); `nil` lets every uid be any
    /// package no other app holds. A live app's package is the caller identity the daemon vouches for
    /// when it starts an intent, as Android's package manager vouches for an installed app's: only these
    /// grants decide who may act as the Google app.
    public var androidPackages: [UInt32: [String]]?

    /// Creates a policy; the defaults let any uid register and none override.
    public init(registerUIDs: [UInt32]? = nil, overrideUIDs: [UInt32] = [], androidPackages: [UInt32: [String]]? = nil) {
        self.registerUIDs = registerUIDs
        self.overrideUIDs = overrideUIDs
        self.androidPackages = androidPackages
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case registerUIDs, overrideUIDs, androidPackages
    }

    /// Decodes `claimPolicy` from `appflipd.json`, refusing unknown keys, uids that are not decimal numbers
    /// and entries that are neither a package name nor `"*"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        registerUIDs = try container.decodeIfPresent([UInt32].self, forKey: .registerUIDs)
        overrideUIDs = try container.decodeIfPresent([UInt32].self, forKey: .overrideUIDs) ?? []
        guard let grants = try container.decodeIfPresent([String: [String]].self, forKey: .androidPackages) else {
            androidPackages = nil
            return
        }
        var packages: [UInt32: [String]] = [:]
        for (key, names) in grants.sorted(by: { $0.key < $1.key }) {
            let path = container.codingPath + [CodingKeys.androidPackages]
            guard let uid = UInt32(key), String(uid) == key else {
                throw ConfigurationError(at: path, "\"\(key)\" is not a uid: the keys are uids in decimal")
            }
            for name in names where name != "*" {
                if let problem = AndroidPackageName.problem(with: name) { throw ConfigurationError(at: path, "uid \(uid): \(problem)") }
            }
            packages[uid] = names
        }
        androidPackages = packages
    }

    /// Encodes the policy as `appflipd.json` holds it, uids as keys in decimal.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(registerUIDs, forKey: .registerUIDs)
        try container.encode(overrideUIDs, forKey: .overrideUIDs)
        let grants = androidPackages.map { Dictionary(uniqueKeysWithValues: $0.map { (String($0.key), $0.value) }) }
        try container.encodeIfPresent(grants, forKey: .androidPackages)
    }

    func mayRegister(uid: UInt32) -> Bool {
        registerUIDs.map { $0.contains(uid) } ?? true
    }

    func mayOverride(uid: UInt32) -> Bool {
        overrideUIDs.contains(uid)
    }

    func mayBe(package: String, uid: UInt32) -> Bool {
        guard let androidPackages else { return true }
        return androidPackages[uid].map { $0.contains("*") || $0.contains(package) } ?? false
    }
}
