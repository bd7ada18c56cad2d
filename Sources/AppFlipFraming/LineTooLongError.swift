/// A line passed the limit; the daemon answers `line_too_long` and closes, the client closes.
package struct LineTooLongError: Error, Sendable {
    package var limit: Int
}
