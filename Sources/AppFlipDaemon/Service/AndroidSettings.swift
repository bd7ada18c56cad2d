import AppFlipConfiguration
public import AppFlipCore

/// `android` in `appflipd.json`: which device the daemon plays when it routes a link as Android does. Devices
/// differ in the verifier that decided their hosts (Google Play services' or AOSP's StatementService) and in
/// how their release applies the verdicts (all hosts or none before Android 12, per host since, dynamic
/// rules since Android 15).
public struct AndroidSettings: Sendable, Hashable {
    /// The verifier whose verdicts decide; Google's by default, as on devices with Play services.
    public var verifier: AppLinkVerifier = .google
    /// The Android release; 15 by default, the newest behaviour.
    public var generation: AndroidGeneration = .android15

    /// The defaults.
    public init() {}

    /// A device verified by `verifier` running `generation`.
    public init(verifier: AppLinkVerifier, generation: AndroidGeneration) {
        self.verifier = verifier
        self.generation = generation
    }

    /// The generation a release number names: 11 (6 to 11), 12 (12 to 14) or 15 (15 and later).
    static func generation(release: Int) -> AndroidGeneration? {
        switch release {
        case 11: .android11AndEarlier
        case 12: .android12
        case 15: .android15
        default: nil
        }
    }

    /// The verifier's name in the configuration and in `explain`.
    static func name(of verifier: AppLinkVerifier) -> String {
        switch verifier {
        case .google: "google"
        case .statementService: "statementService"
        }
    }

    /// The release number written in the configuration for a generation.
    static func release(of generation: AndroidGeneration) -> Int {
        switch generation {
        case .android11AndEarlier: 11
        case .android12: 12
        case .android15: 15
        }
    }
}

extension AndroidSettings: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case verifier, generation
    }

    /// Decodes the settings strictly: `verifier` is `google` or `statementService`, `generation` 11, 12 or 15.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        switch try container.decodeIfPresent(String.self, forKey: .verifier) {
        case nil, "google": verifier = .google
        case "statementService": verifier = .statementService
        case let other?:
            throw DecodingError.dataCorruptedError(
                forKey: .verifier,
                in: container,
                debugDescription: "must be google or statementService, not \"\(other)\""
            )
        }
        if let release = try container.decodeIntegerIfPresent(forKey: .generation) {
            guard let generation = Self.generation(release: release) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .generation,
                    in: container,
                    debugDescription: "must be 11 (Android 6 to 11), 12 (12 to 14) or 15 (15 and later), not \(release)"
                )
            }
            self.generation = generation
        }
    }

    /// Encodes the settings as they are written.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.name(of: verifier), forKey: .verifier)
        try container.encode(Self.release(of: generation), forKey: .generation)
    }
}
