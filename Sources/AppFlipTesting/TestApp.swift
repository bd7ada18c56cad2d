public import AppFlipCore
import AppFlipProtocol

/// A static app to put in a test daemon's `apps.d`.
public struct TestApp: Sendable {
    public enum Handler: Sendable {
        /// `{"builtin": "accept"}`.
        case accept
        /// An `exec` handler running this shell script (`#!/bin/sh` is prepended).
        case script(String, timeoutSeconds: Double? = nil)
        /// The app file's `handler` object as written, e.g. `{"appflip": {…}}` for the partner handler.
        case configured(JSONValue)
    }

    public var appID: String
    public var domains: [String]
    /// The app's AASA `components`; the default matches every path.
    public var components: [JSONValue]
    public var handler: Handler
    public var priority: Int?

    public init(appID: String, domains: [String], components: [JSONValue] = [.object(["/": .string("*")])], handler: Handler, priority: Int? = nil) {
        self.appID = appID
        self.domains = domains
        self.components = components
        self.handler = handler
        self.priority = priority
    }
}
