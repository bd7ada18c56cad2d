/// How Android's activity manager resolves an intent limited to one package (`Intent.setPackage`) for
/// `startActivity`: the package's activities whose filter lists the action and `CATEGORY_DEFAULT`, which
/// `startActivity` adds; then the caller must be allowed to start it (`android:exported`, or the same app).
extension AndroidIdentity {
    /// The activity `action` starts in this app, for a caller of `callerPackage` (nil: not an Android app),
    /// or why it starts none. Of several matches the first declared is taken, where Android would show a
    /// chooser.
    public func resolve(action: String, callerPackage: String?) -> Result<AndroidActivity, IntentRefusal> {
        let declaring = activities.filter { $0.actions.contains(action) }
        guard !declaring.isEmpty else { return .failure(.noActivity(package: package, action: action)) }
        guard let activity = declaring.first(where: { $0.categories.contains(AndroidActivity.defaultCategory) }) else {
            return .failure(.missingDefaultCategory(package: package, action: action, activity: declaring[0].className(in: package)))
        }
        guard activity.exported || callerPackage == package else {
            return .failure(.notExported(package: package, activity: activity.className(in: package)))
        }
        return .success(activity)
    }
}

/// Why an intent starts no activity: Android's `ActivityNotFoundException` (no activity, or none with
/// `CATEGORY_DEFAULT`) or `SecurityException` (not exported).
public enum IntentRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// No activity of the package lists the action.
    case noActivity(package: String, action: String)
    /// An activity lists the action, but its filter lacks `android.intent.category.DEFAULT`.
    case missingDefaultCategory(package: String, action: String, activity: String)
    /// The activity is `android:exported="false"` and the caller is another app.
    case notExported(package: String, activity: String)

    /// What Android would say, and which declaration is at fault.
    public var description: String {
        switch self {
        case .noActivity(let package, let action):
            "no activity of \(package) handles the action \"\(action)\" (ActivityNotFoundException)"
        case .missingDefaultCategory(let package, let action, let activity):
            "\(activity) lists the action \"\(action)\" but its filter lacks \(AndroidActivity.defaultCategory), which startActivity adds, so no activity of \(package) handles it (ActivityNotFoundException)"
        case .notExported(let package, let activity):
            "\(activity) is not exported (android:exported=\"false\"): only \(package) itself may start it (SecurityException)"
        }
    }
}
