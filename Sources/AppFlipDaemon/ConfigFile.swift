import AppFlipProtocol
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Reading and strictly decoding JSON configuration files.
enum ConfigFile {
    /// The file's bytes; configuration files are small, so a file over 16 MiB is refused.
    static func read(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXErrorDescription(errno: errno) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw POSIXErrorDescription(errno: errno)
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            if bytes.count > 16 << 20 { throw POSIXErrorDescription(errno: EFBIG) }
        }
    }

    /// The absolute directory of `path`, so that paths resolved against it do not depend on the working
    /// directory (an `exec` handler runs in its app file's directory).
    static func directory(of path: String) -> String {
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

    static func resolve(_ path: String, against directory: String) -> String {
        path.hasPrefix("/") ? path : directory + "/" + path
    }

    /// Decodes `bytes`, turning any decoding error into one that names the file and the field.
    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], file: String) throws(ConfigurationError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch let error as ConfigurationError {
            throw ConfigurationError(file: file, field: error.field, error.message)
        } catch let error as DecodingError {
            let body = ErrorBody(decodingError: error)
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw ConfigurationError(file: file, "is not valid JSON")
            }
            throw ConfigurationError(file: file, field: body.field, body.message)
        } catch {
            throw ConfigurationError(file: file, "\(error)")
        }
    }

    /// Refuses keys the format does not have, naming the first one.
    static func refuseUnknownKeys(_ decoder: any Decoder, known: [String]) throws {
        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        let container = try decoder.container(keyedBy: AnyKey.self)
        let path = decoder.codingPath.map(\.stringValue).joined(separator: ".")
        for key in container.allKeys.map(\.stringValue).sorted() where !known.contains(key) {
            let field = path.isEmpty ? key : path + "." + key
            throw ConfigurationError(file: "", field: field, "unknown key; known keys are \(known.joined(separator: ", "))")
        }
    }
}
