import ArgumentParser
import FoundationEssentials
import Glibc

/// A secret (client secret, cookie, bearer token, header) given on the command line, in a file or in an
/// environment variable. The command line is readable by every user through `ps` and /proc; a file or the
/// environment is not.
struct SecretOption {
    /// The option's name, e.g. `--client-secret`; the file option is the same name with `-file`.
    let option: String
    /// The environment variable read when neither option is given, e.g. `APPFLIP_CLIENT_SECRET`.
    let environmentVariable: String

    /// The OAuth client's secret at the token endpoint (`flip`, `audit`).
    static let clientSecret = SecretOption(option: "--client-secret", environmentVariable: "APPFLIP_CLIENT_SECRET")
    /// The sign-in cookie for the authorization endpoint (`audit`).
    static let cookie = SecretOption(option: "--cookie", environmentVariable: "APPFLIP_COOKIE")
    /// The sign-in bearer token for the authorization endpoint (`audit`).
    static let bearer = SecretOption(option: "--bearer", environmentVariable: "APPFLIP_BEARER")
    /// The sign-in header, `Name: value`, for the authorization endpoint (`audit`).
    static let header = SecretOption(option: "--header", environmentVariable: "APPFLIP_HEADER")

    /// A secret file may hold more than one line only by mistake; anything this long is not a secret.
    static let readLimit = 64 * 1024

    /// Where the secret was given, for the checks that depend on it having been asked for explicitly.
    enum Origin {
        /// `--NAME` or `--NAME-file`.
        case explicit
        /// The environment variable.
        case environment
    }

    /// The secret from `value` (`--NAME`), or the file `file` (`--NAME-file`: its bytes, without one final
    /// line break), or the environment variable; nil when none has it. Both options at once, an unreadable
    /// or empty file are usage errors.
    func resolve(value: String?, file: String?) throws -> (secret: String, origin: Origin)? {
        switch (value, file) {
        case (.some, .some):
            throw ValidationError("give one of \(option) and \(option)-file")
        case (let value?, nil):
            return (value, .explicit)
        case (nil, let file?):
            return (try Self.read(file, option: option + "-file"), .explicit)
        case (nil, nil):
            guard let variable = getenv(environmentVariable), variable.pointee != 0 else { return nil }
            return (String(cString: variable), .environment)
        }
    }

    private static func read(_ path: String, option: String) throws -> String {
        // Checked before reading, so that a mistaken path to a large file is not read into memory.
        let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0
        guard size <= readLimit, let data = try? Data(contentsOf: URL(filePath: path)) else {
            throw ValidationError("\(option) \(path): cannot read it (a readable file of at most \(readLimit) bytes)")
        }
        guard data.count <= readLimit, var text = String(validating: data, as: UTF8.self) else {
            throw ValidationError("\(option) \(path): not a secret (more than \(readLimit) bytes, or not UTF-8)")
        }
        // One final line break, as `echo` and editors write it ("\r\n" is one Character).
        if text.hasSuffix("\n") || text.hasSuffix("\r\n") { text.removeLast() }
        guard !text.isEmpty else { throw ValidationError("\(option) \(path): the file is empty") }
        return text
    }
}
