/// Anything the daemon writes: a reply, or a push that answers no request.
public enum ServerMessage: Sendable, Hashable {
    case reply(Reply)
    case activity(ActivityPush)
    case event(HandoffEvent)
}
