import AppFlipCore
import AppFlipHTTPClient
import FoundationEssentials

/// What `appflip flip` found, step by step: the `--json` document and the source of the text output.
/// It never holds a code or a token: only fingerprints (in `TokenReport`).
public struct FlipReport: Sendable, Codable {
    /// The five steps of the seed, in order, then the two of `--unlink`.
    public enum StepName: Int, Sendable, Codable, CaseIterable {
        case linkOpened = 1
        case parametersChecked, codeObtained, resultDelivered, tokensExchanged
        /// `--unlink`: the partner's revocation endpoint was called, as Google does when the user unlinks.
        case tokensRevoked
        /// `--unlink`: the refresh token gets `invalid_grant` and the access tokens no longer open the resource.
        case revocationConfirmed

        /// The step's name as the text report prints it.
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

        /// The step's name in an Android flip (`--android`), where an intent replaces the links.
        public var androidTitle: String {
            switch self {
            case .linkOpened: "intent started"
            case .parametersChecked: "app checked caller and extras"
            case .codeObtained: "code obtained"
            case .resultDelivered: "result returned"
            default: title
            }
        }
    }

    /// How a step ended; steps after a failure are `skipped`.
    public enum StepStatus: String, Sendable, Codable {
        case ok, failed, skipped
    }

    /// One row of the report: one of the seed's five steps.
    public struct Step: Sendable, Codable {
        /// The step's number in the seed, 1 to 5.
        public var step: Int
        /// The step's title, ``StepName/title``.
        public var name: String
        /// How the step ended.
        public var status: StepStatus
        /// Milliseconds the step took; nil when it cannot be told apart from its neighbour (see `detail`).
        public var milliseconds: Double?
        /// What happened, in words; never a code or token.
        public var detail: String?
    }

    /// The link sent (it carries no secret: client_id, scope, state, redirect_uri); for an Android flip, the
    /// intent as `Intent.toUri` writes it.
    public var link: String
    /// The `state` the flip link carried and the result must echo; nil for an Android flip, which has none.
    public var state: String?
    /// The `redirect_uri` the flip link carried (where the result must arrive), or the intent's `REDIRECT_URI`.
    public var redirectURI: String
    /// True for an Android flip (`--android`): an explicit intent for a result instead of links.
    public var android: Bool?
    /// The app the daemon routed the link to.
    public var app: String?
    /// The steps run, in order.
    public var steps: [Step] = []
    /// `code` or the App Flip error value the partner answered.
    public var result: String?
    /// The `error_description` the partner sent with an error result, when it sent one.
    public var errorDescription: String?
    /// App Flip rules the result broke (`FlipResultViolation`); any one makes exit status 2.
    public var violations: [String] = []
    /// Things the result does that Google tolerates but the seed advises against (`FlipResultDeviation`).
    public var deviations: [String] = []
    /// The code exchange's response, as fingerprints.
    public var tokens: TokenReport?
    /// The refresh's response, as fingerprints, when the flip refreshed.
    public var refreshed: TokenReport?
    /// With `--unlink`: true once the tokens were revoked and confirmed dead; nil without `--unlink`.
    public var unlinked: Bool?
    /// The exit status: 0 linked, 1 the flow stopped, 2 a rule was broken, 3 appflipd unreachable.
    public var exitStatus: Int32 = 0
    /// The step that stopped the flow, and why, in words.
    public var failure: String?

    mutating func record(_ name: StepName, _ status: StepStatus, milliseconds: Double?, _ detail: String? = nil) {
        let title = android == true ? name.androidTitle : name.title
        steps.append(Step(step: name.rawValue, name: title, status: status, milliseconds: milliseconds, detail: detail))
    }

    /// Records a failed step and stops: every later step is skipped (steps 6 and 7 only with `--unlink`).
    mutating func fail(_ name: StepName, milliseconds: Double?, _ reason: String, exitStatus: Int32) {
        record(name, .failed, milliseconds: milliseconds, reason)
        for later in StepName.allCases where later.rawValue > name.rawValue && later.rawValue <= lastStep.rawValue {
            record(later, .skipped, milliseconds: nil)
        }
        failure = "step \(name.rawValue) (\(android == true ? name.androidTitle : name.title)) failed: \(reason)"
        self.exitStatus = exitStatus
    }

    /// Records every step the flow never reached as skipped, in order: a run ends with all of its steps.
    mutating func skipUnreached() {
        for name in StepName.allCases where name.rawValue <= lastStep.rawValue && !steps.contains(where: { $0.step == name.rawValue }) {
            record(name, .skipped, milliseconds: nil)
        }
    }

    /// Steps 2 and 3 passed: the app accepted the request and returned `code`, shown by its length and
    /// fingerprint. The app checks and asks for the code in one piece of work, so step 3 carries the time.
    mutating func recordCode(_ code: String, milliseconds: Double?) {
        result = "code"
        record(.parametersChecked, .ok, milliseconds: nil, "accepted (steps 2 and 3 are timed together: the app's own work)")
        record(.codeObtained, .ok, milliseconds: milliseconds, "\(code.utf8.count) bytes, sha256:\(Fingerprint.of(code))")
    }

    /// The run's last step: 5, or 7 with `--unlink`.
    private var lastStep: StepName { unlinked == nil ? .tokensExchanged : .revocationConfirmed }
}

/// The `state` the Google app sends: a nonce it checks byte for byte in the result.
public enum FlipState {
    /// 32 random bytes from the system generator, in standard base64 (RFC 4648 §4): its `+`, `/` and `=`
    /// must be percent-encoded on the way back, so the default flip already tests the partner's encoding.
    public static func fresh() -> String {
        Data(SystemRandomSource().bytes(32)).base64EncodedString()
    }
}
