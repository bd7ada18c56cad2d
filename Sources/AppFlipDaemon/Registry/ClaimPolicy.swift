import AppFlipConfiguration

/// Who may register live apps, and who may claim what a static app or another uid's live app owns.
public struct ClaimPolicy: Sendable, Hashable, Codable {
    /// The uids allowed to register live apps; `nil` allows every uid that can reach the socket.
    public var registerUIDs: [UInt32]?
    /// The uids whose live apps may take app ids and domains owned by static apps or by other uids' live
    /// apps. Their live apps then take precedence over the apps they overlap.
    public var overrideUIDs: [UInt32]

    /// Creates a policy; the defaults let any uid register and none override.
    public init(registerUIDs: [UInt32]? = nil, overrideUIDs: [UInt32] = []) {
        self.registerUIDs = registerUIDs
        self.overrideUIDs = overrideUIDs
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case registerUIDs, overrideUIDs
    }

    /// Decodes `claimPolicy` from `appflipd.json`, refusing unknown keys.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        registerUIDs = try container.decodeIfPresent([UInt32].self, forKey: .registerUIDs)
        overrideUIDs = try container.decodeIfPresent([UInt32].self, forKey: .overrideUIDs) ?? []
    }

    func mayRegister(uid: UInt32) -> Bool {
        registerUIDs.map { $0.contains(uid) } ?? true
    }

    func mayOverride(uid: UInt32) -> Bool {
        overrideUIDs.contains(uid)
    }
}
