public import AppFlipCore
import AppFlipProtocol

/// A static app to put in a test daemon's `apps.d`.
public struct TestApp: Sendable {
    /// How the app answers an activity: the handler written to its app file.
    public enum Handler: Sendable {
        /// `{"builtin": "accept"}`.
        case accept
        /// An `exec` handler running this shell script (`#!/bin/sh` is prepended).
        case script(String, timeoutSeconds: Double? = nil)
        /// The app file's `handler` object as written, e.g. `{"appflip": {…}}` for the partner handler.
        case configured(JSONValue)
    }

    /// The app id, `TEAMID.bundle.id`; the AASA written for the app lists it in `appIDs`.
    public var appID: String
    /// The app's `applinks:` entries, e.g. `applinks:a.test`.
    public var domains: [String]
    /// The app's AASA `components`; the default matches every path.
    public var components: [JSONValue]
    /// How the app answers.
    public var handler: Handler
    /// The app file's `priority`; `nil` leaves it out.
    public var priority: Int?
    /// The app file's `android` identity; with no `domains`, the app file has no association either.
    public var android: AndroidIdentity?
    /// The statement lists of the Android identity's App Links hosts, by host: each is written to a file
    /// that the app file's `android.assetLinks` names.
    public var assetLinks: [String: JSONValue]

    /// Creates an app that, by default, claims every path of its domains.
    public init(
        appID: String,
        domains: [String],
        components: [JSONValue] = [.object(["/": .string("*")])],
        handler: Handler,
        priority: Int? = nil,
        android: AndroidIdentity? = nil,
        assetLinks: [String: JSONValue] = [:]
    ) {
        self.appID = appID
        self.domains = domains
        self.components = components
        self.handler = handler
        self.priority = priority
        self.android = android
        self.assetLinks = assetLinks
    }
}
