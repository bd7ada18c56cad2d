import AppFlipClient
import AppFlipProtocol
import ArgumentParser
import FoundationEssentials
import Glibc

/// Colour for people, none for pipes: ANSI styles only when stdout is a terminal and `NO_COLOR` is unset
/// (https://no-color.org).
struct OutputStyle: Sendable {
    let colored: Bool

    static let standard = OutputStyle(colored: isatty(STDOUT_FILENO) == 1 && getenv("NO_COLOR").map { $0.pointee == 0 } ?? true)

    func green(_ text: String) -> String { paint(text, "32") }
    func red(_ text: String) -> String { paint(text, "31") }
    func yellow(_ text: String) -> String { paint(text, "33") }
    func bold(_ text: String) -> String { paint(text, "1") }
    func dim(_ text: String) -> String { paint(text, "2") }

    private func paint(_ text: String, _ code: String) -> String {
        colored ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

/// `--json` output: one compact JSON document per line, in the protocol's own shapes.
package enum OutputJSON {
    package static func print(_ value: some Encodable) throws {
        Swift.print(String(decoding: try JSONEncoder.protocolEncoder.encode(value), as: UTF8.self))
    }
}

/// Human-readable lines for protocol results.
extension OutputStyle {
    func describe(_ error: ErrorBody) -> String {
        var line = red("✘ \(error.code.rawValue)") + ": " + error.message
        if let field = error.field { line += dim(" (field \(field))") }
        return line
    }

    func describe(opened: OpenedURL) -> String {
        let target: String
        switch opened.status {
        case .delivered: target = green("delivered") + " to \(opened.app ?? "?")" + dim(" (\(opened.rule ?? "-"))")
        case .declined: target = yellow("declined") + " by \(opened.app ?? "?")" + (opened.reason.map { ": \($0)" } ?? "")
        case .browser: target = yellow("browser") + dim(" (no app claims it; universalLinksOnly was false)")
        case .chooser: target = yellow("chooser") + dim(" (Android 11's disambiguation dialog; no user to choose)")
        case .failed: target = red("failed") + (opened.error.map { ": \($0.code.rawValue): \($0.message)" } ?? "")
        }
        let flag = opened.universalLinksOnly ? dim(" [universalLinksOnly]") : ""
        return "  opened \(opened.url)\(flag) → \(target)"
    }
}

extension String {
    /// Right-aligned in a column `width` characters wide, for the benches' tables.
    package func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    /// Left-aligned in a column `width` characters wide.
    package func rightPadded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

/// stderr as a `TextOutputStream`.
package struct FileHandleOutputStream: TextOutputStream {
    package let descriptor: Int32
    package static var standardError: FileHandleOutputStream { FileHandleOutputStream(descriptor: STDERR_FILENO) }

    package mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { _ = Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }
}
