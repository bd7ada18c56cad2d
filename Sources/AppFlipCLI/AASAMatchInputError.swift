import AppFlipCore
import ArgumentParser

/// A URL or domain given to `aasa match` that cannot be used.
struct AASAMatchInputError: Error, CustomStringConvertible {
    let description: String
}
