import Logging
import NIOConcurrencyHelpers

/// What every connection of one daemon shares.
final class DaemonContext: Sendable {
    let configuration: DaemonConfiguration
    let registry: AppRegistry
    let router: HandoffRouter
    let recorder: HandoffRecorder
    let events: EventHub
    let inFlight: InFlightHandoffs
    let logger: Logger
    private let policy: NIOLockedValueBox<ClaimPolicy>

    init(configuration: DaemonConfiguration, staticApps: [RegisteredApp], logger: Logger, handoffLog: (any HandoffLog)? = nil) {
        self.configuration = configuration
        self.registry = AppRegistry(staticApps: staticApps)
        self.events = EventHub()
        self.inFlight = InFlightHandoffs()
        self.logger = logger
        self.policy = NIOLockedValueBox(configuration.claimPolicy)
        self.router = HandoffRouter(registry: registry, platform: configuration.platform, android: configuration.android)
        self.recorder = HandoffRecorder(events: events, log: handoffLog ?? LoggerHandoffLog(logger: logger))
    }

    /// The claim policy in force; a reload may replace it.
    var claimPolicy: ClaimPolicy {
        get { policy.withLockedValue { $0 } }
        set { policy.withLockedValue { $0 = newValue } }
    }
}
