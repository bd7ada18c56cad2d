public import AppFlipOAuth

/// What `appflip flip` found, step by step: the `--json` document and the source of the text output.
/// It never holds a code or a token: only fingerprints (in `TokenReport`).
public struct FlipReport: Sendable, Codable {
    /// The five steps of the seed, in order, then the two of `--unlink`.
    public enum StepName: Int, Sendable, Codable, CaseIterable {
        case linkOpened = 1, parametersChecked, codeObtained, resultDelivered, tokensExchanged
        /// `--unlink`: the partner's revocation endpoint was called, as Google does when the user unlinks.
        case tokensRevoked
        /// `--unlink`: the refresh token gets `invalid_grant` and the access tokens no longer open the resource.
        case revocationConfirmed

        public var title: String {
            switch self {
            case .linkOpened: "universal link opened"
            case .parametersChecked: "app checked the parameters"
            case .codeObtained: "code obtained"
            case .resultDelivered: "result link delivered"
            case .tokensExchanged: "tokens exchanged"
            case .tokensRevoked: "tokens revoked (unlink)"
            case .revocationConfirmed: "revoked tokens are dead"
            }
        }
    }

    public enum StepStatus: String, Sendable, Codable {
        case ok, failed, skipped
    }

    public struct Step: Sendable, Codable {
        public var step: Int
        public var name: String
        public var status: StepStatus
        /// Milliseconds the step took; nil when it cannot be told apart from its neighbour (see `detail`).
        public var milliseconds: Double?
        public var detail: String?
    }

    /// The link sent (it carries no secret: client_id, scope, state, redirect_uri).
    public var link: String
    public var state: String
    public var redirectURI: String
    /// The app the daemon routed the link to.
    public var app: String?
    public var steps: [Step] = []
    /// `code` or the App Flip error value the partner answered.
    public var result: String?
    public var errorDescription: String?
    public var violations: [String] = []
    public var deviations: [String] = []
    public var tokens: TokenReport?
    public var refreshed: TokenReport?
    /// With `--unlink`: true once the tokens were revoked and confirmed dead; nil without `--unlink`.
    public var unlinked: Bool?
    /// The exit status: 0 linked, 1 the flow stopped, 2 a rule was broken, 3 appflipd unreachable.
    public var exitStatus: Int32 = 0
    /// The step that stopped the flow, and why, in words.
    public var failure: String?

    mutating func record(_ name: StepName, _ status: StepStatus, milliseconds: Double?, _ detail: String? = nil) {
        steps.append(Step(step: name.rawValue, name: name.title, status: status, milliseconds: milliseconds, detail: detail))
    }

    /// Records a failed step and stops: every later step is skipped (steps 6 and 7 only with `--unlink`).
    mutating func fail(_ name: StepName, milliseconds: Double?, _ reason: String, exitStatus: Int32) {
        record(name, .failed, milliseconds: milliseconds, reason)
        let last = unlinked == nil ? StepName.tokensExchanged.rawValue : StepName.revocationConfirmed.rawValue
        for later in StepName.allCases where later.rawValue > name.rawValue && later.rawValue <= last {
            record(later, .skipped, milliseconds: nil)
        }
        failure = "step \(name.rawValue) (\(name.title)) failed: \(reason)"
        self.exitStatus = exitStatus
    }
}
