import AppFlipCore

/// The operation names of protocol v1.
public enum Op: String, Sendable, Hashable, Codable, CaseIterable {
    case hello, open, register, answer, explain, apps, watch
}
