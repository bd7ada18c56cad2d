public import AppFlipCore

/// A user activity in the image of `NSUserActivity`: what a universal-link handoff carries.
public struct Activity: Sendable, Hashable, Codable {
    /// `NSUserActivityTypeBrowsingWeb` for a universal link; anything else is refused.
    public var activityType: String
    /// The link, exactly as sent.
    public var webpageURL: String?
    /// Free-form data passed to the handler untouched.
    public var userInfo: [String: JSONValue]?

    /// Creates a browsing-web activity for `webpageURL`, as a universal-link tap does.
    public init(activityType: String = browsingWebActivityType, webpageURL: String?, userInfo: [String: JSONValue]? = nil) {
        self.activityType = activityType
        self.webpageURL = webpageURL
        self.userInfo = userInfo
    }

    private enum CodingKeys: String, CodingKey {
        case activityType, webpageURL, userInfo
    }

    /// Decodes `userInfo` as one `JSONValue`, whose members decode in key order: as `[String: JSONValue]` they
    /// decoded in a dictionary's order, so that of two bad members the error named either (found by FuzzRequest).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        activityType = try container.decode(String.self, forKey: .activityType)
        webpageURL = try container.decodeIfPresent(String.self, forKey: .webpageURL)
        switch try container.decodeIfPresent(JSONValue.self, forKey: .userInfo) {
        case nil, .null?: userInfo = nil
        case .object(let members)?: userInfo = members
        default:
            throw DecodingError.typeMismatch(
                [String: JSONValue].self,
                DecodingError.Context(codingPath: container.codingPath + [CodingKeys.userInfo], debugDescription: "userInfo is not an object")
            )
        }
    }
}

/// Who is on the other end of a Unix socket connection, from `SO_PEERCRED`.
public struct PeerInfo: Sendable, Hashable, Codable {
    /// The peer's user id: what the claim policy and per-uid limits judge.
    public var uid: UInt32
    /// The peer's group id.
    public var gid: UInt32
    /// The peer's process id when it connected.
    public var pid: Int32

    /// Creates the record.
    public init(uid: UInt32, gid: UInt32, pid: Int32) {
        self.uid = uid
        self.gid = gid
        self.pid = pid
    }
}
