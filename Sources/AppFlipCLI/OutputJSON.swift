import AppFlipProtocol
import FoundationEssentials

/// `--json` output: one compact JSON document per line, in the protocol's own shapes.
enum OutputJSON {
    static func print(_ value: some Encodable) throws {
        Swift.print(String(decoding: try JSONEncoder.protocolEncoder.encode(value), as: UTF8.self))
    }
}
