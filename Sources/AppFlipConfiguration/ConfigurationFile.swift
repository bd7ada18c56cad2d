import AppFlipCore
import FoundationEssentials
import Glibc

/// The one way a configuration file is read: bounded in size, decoded strictly (each format refuses
/// unknown keys through ``Swift/Decoder/strictContainer(keyedBy:)``), and every failure a
/// ``ConfigurationError`` naming the file and the field.
public enum ConfigurationFile {
    /// Configuration files are small; a larger file is a mistake (a log, a core dump) and is refused.
    public static let maxBytes = 16 << 20

    /// Reads and decodes `path`. `userInfo` reaches every `init(from:)`, for defaults that come from
    /// elsewhere (a handler's time limit from the daemon's).
    public static func load<T: Decodable>(
        _ type: T.Type,
        from path: String,
        userInfo: [CodingUserInfoKey: any Sendable] = [:]
    ) throws(ConfigurationError) -> T {
        try decode(T.self, from: read(path), file: path, userInfo: userInfo)
    }

    /// The file's bytes.
    public static func read(_ path: String) throws(ConfigurationError) -> [UInt8] {
        func failure(_ number: Int32) -> ConfigurationError {
            ConfigurationError(file: path, "cannot read: \(String(cString: strerror(number)))")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(errno) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(errno)
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            if bytes.count > maxBytes { throw ConfigurationError(file: path, "is larger than \(maxBytes) bytes") }
        }
    }

    /// Decodes `bytes` read from `file`, turning any decoding error into one that names the file and the field.
    public static func decode<T: Decodable>(
        _ type: T.Type,
        from bytes: [UInt8],
        file: String,
        userInfo: [CodingUserInfoKey: any Sendable] = [:]
    ) throws(ConfigurationError) -> T {
        let decoder = JSONDecoder()
        decoder.userInfo = userInfo
        do {
            return try decoder.decode(T.self, from: Data(bytes))
        } catch let error as ConfigurationError {
            throw error.located(in: file)
        } catch let error as DecodingError {
            throw ConfigurationError(decoding: error).located(in: file)
        } catch {
            throw ConfigurationError(file: file, "\(error)")
        }
    }

    /// The absolute directory of `path`, so that paths resolved against it do not depend on the working
    /// directory (an `exec` handler runs in its app file's directory).
    public static func directory(of path: String) -> String {
        let directory: String
        if let slash = path.lastIndex(of: "/") {
            directory = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            directory = "."
        }
        guard let resolved = realpath(directory, nil) else { return directory }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `path` as written in a file in `directory`: relative paths are relative to that file.
    public static func resolve(_ path: String, against directory: String) -> String {
        path.hasPrefix("/") ? path : directory + "/" + path
    }
}

extension ConfigurationError {
    /// The field a decoding error points at, and what a user should fix there.
    init(decoding error: DecodingError) {
        let failure = DecodingFailure(error)
        switch failure.problem {
        case .missing: self.init(field: failure.field, "is required")
        case .typeMismatch(let expected): self.init(field: failure.field, "must be \(expected)")
        case .null(let expected): self.init(field: failure.field, "must be \(expected), not null")
        case .invalid(let reason): self.init(field: failure.field, "is invalid: \(reason)")
        case .notJSON: self.init("is not valid JSON")
        }
    }
}
