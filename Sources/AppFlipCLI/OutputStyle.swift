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
