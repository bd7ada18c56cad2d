import AppFlipCore
import AppFlipProtocol

/// Route precedence: live apps rank above every static app, so that a live app allowed to override
/// (`claimPolicy.overrideUIDs`) wins the URLs it shares with the static app it overrides.
enum RoutePriority {
    static let live = 1_000_000
    /// The range of `priority` in an `apps.d` file.
    static let staticRange = -1000...1000
}
