import AppFlipOAuth

/// What `appflip flip` found, step by step: the `--json` document and the source of the text output.
/// It never holds a code or a token: only fingerprints (in `TokenReport`).
struct FlipReport: Sendable, Codable {
    /// The five steps of the seed, in order.
    enum StepName: Int, Sendable, Codable, CaseIterable {
        case linkOpened = 1, parametersChecked, codeObtained, resultDelivered, tokensExchanged

        var title: String {
            switch self {
            case .linkOpened: "universal link opened"
            case .parametersChecked: "app checked the parameters"
            case .codeObtained: "code obtained"
            case .resultDelivered: "result link delivered"
            case .tokensExchanged: "tokens exchanged"
            }
        }
    }

    enum StepStatus: String, Sendable, Codable {
        case ok, failed, skipped
    }

    struct Step: Sendable, Codable {
        var step: Int
        var name: String
        var status: StepStatus
        /// Milliseconds the step took; nil when it cannot be told apart from its neighbour (see `detail`).
        var milliseconds: Double?
        var detail: String?
    }

    /// The link sent (it carries no secret: client_id, scope, state, redirect_uri).
    var link: String
    var state: String
    var redirectURI: String
    /// The app the daemon routed the link to.
    var app: String?
    var steps: [Step] = []
    /// `code` or the App Flip error value the partner answered.
    var result: String?
    var errorDescription: String?
    var violations: [String] = []
    var deviations: [String] = []
    var tokens: TokenReport?
    var refreshed: TokenReport?
    /// The exit status: 0 linked, 1 the flow stopped, 2 a rule was broken, 3 appflipd unreachable.
    var exitStatus: Int32 = 0
    /// The step that stopped the flow, and why, in words.
    var failure: String?

    mutating func record(_ name: StepName, _ status: StepStatus, milliseconds: Double?, _ detail: String? = nil) {
        steps.append(Step(step: name.rawValue, name: name.title, status: status, milliseconds: milliseconds, detail: detail))
    }

    /// Records a failed step and stops: every later step is skipped.
    mutating func fail(_ name: StepName, milliseconds: Double?, _ reason: String, exitStatus: Int32) {
        record(name, .failed, milliseconds: milliseconds, reason)
        for later in StepName.allCases where later.rawValue > name.rawValue {
            record(later, .skipped, milliseconds: nil)
        }
        failure = "step \(name.rawValue) (\(name.title)) failed: \(reason)"
        self.exitStatus = exitStatus
    }
}
