/// `ConfigurationError` is part of this module's API (``HandlerFactory`` and ``DaemonConfiguration`` throw
/// it), so importing the daemon brings it along.
@_exported import AppFlipConfiguration
