/// A handler's answer to a handoff: `application(_:continue:restorationHandler:)`'s return value, and, when
/// it declines, why, so that the opener learns which rule its link broke instead of reading the daemon's log.
public struct ActivityAnswer: Sendable, Hashable {
    /// `true` continues the activity (`handled`); `false` declines it (`declined`).
    public var continues: Bool
    /// Why the app declined, in the app's words; carried on the `declined` outcome. Never a code or a secret.
    public var reason: String?

    /// The app continued the activity.
    public static let `continue` = ActivityAnswer(continues: true, reason: nil)

    /// The app declined the activity, saying why when it can.
    public static func decline(_ reason: String? = nil) -> ActivityAnswer {
        ActivityAnswer(continues: false, reason: reason)
    }

    /// Creates an answer.
    public init(continues: Bool, reason: String? = nil) {
        self.continues = continues
        self.reason = reason
    }
}
