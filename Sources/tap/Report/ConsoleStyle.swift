import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// ANSI colour for a terminal, plain text for a pipe, a file or `NO_COLOR` (https://no-color.org).
struct ConsoleStyle: Sendable {
    var isColoured: Bool

    /// Colour when standard output is a terminal that is not `dumb` and `NO_COLOR` is unset.
    static func forStandardOutput() -> ConsoleStyle {
        let environment = ProcessInfo.processInfo.environment
        return ConsoleStyle(
            isColoured: isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb")
    }

    func bold(_ text: String) -> String { paint(text, "1") }
    func dim(_ text: String) -> String { paint(text, "2") }
    func green(_ text: String) -> String { paint(text, "32") }
    func red(_ text: String) -> String { paint(text, "31") }
    func yellow(_ text: String) -> String { paint(text, "33") }
    func cyan(_ text: String) -> String { paint(text, "36") }

    /// A report line: the label padded to a column, then the value.
    static func row(_ label: String, _ value: String) -> String {
        "  " + label.padding(toLength: 42, withPad: " ", startingAt: 0) + value
    }

    private func paint(_ text: String, _ code: String) -> String {
        isColoured ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
