import AppFlipConfiguration
import AppFlipCore
import AppFlipDaemon
import AppFlipOAuth
import AppFlipProtocol
import AppFlipTesting
import NIOCore
import Testing

/// `{"redirect": {"to": "https://…", "universalLinksOnly": false}}`.
struct RedirectHandlerFactory: HandlerFactory {
    let kind = "redirect"

    private struct Configuration: Decodable {
        var to: String
        var universalLinksOnly: Bool?
    }

    func makeHandler(
        _ configuration: JSONValue,
        context: HandlerFactoryContext
    ) throws(ConfigurationError)
        -> any ActivityHandler
    {
        let redirect = try context.decode(Configuration.self, from: configuration)
        guard redirect.to.hasPrefix("https://") else {
            throw ConfigurationError(file: context.file, field: context.field + ".to", "must be an https URL")
        }
        return RedirectHandler(target: redirect.to, universalLinksOnly: redirect.universalLinksOnly ?? true)
    }
}
