/// The three error values App Flip lets a partner app return to Google (seed: "Parameters used when the
/// authorization result is returned unsuccessfully"). Nothing else may ever be sent.
public enum FlipErrorCode: String, Sendable, Hashable, CaseIterable, Codable {
    /// Recoverable: Google falls back to the browser-based authorization URL.
    case cancelled
    /// Google aborts account linking.
    case unrecoverable
    /// The request parameters are invalid or missing.
    case invalidRequest = "invalid_request"
}
