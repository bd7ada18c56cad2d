/// `ConfigurationError` is part of this module's API (``OAuthServerConfiguration`` and
/// ``EmbeddedAuthorizationServer`` throw it), so importing the OAuth module brings it along.
@_exported import AppFlipConfiguration
