import Logging

/// A log handler that forwards everything to another handler, except that it downgrades to
/// `.debug` the error HummingbirdCore logs when its accept loop is cancelled.
///
/// ``ReferenceServer/stop()`` ends the server by cancelling its task (graceful shutdown would
/// need swift-service-lifecycle, which this target does not depend on). Hummingbird then logs
/// `Waiting on child channel: CancellationError()` at `.error`, which is expected here and
/// would otherwise appear on every stop.
struct ShutdownNoiseFilter: LogHandler {
    /// The handler that receives the messages.
    var upstream: any LogHandler

    /// A logger that sends its messages through this filter to `base`'s handler.
    static func wrapping(_ base: Logger) -> Logger {
        Logger(label: base.label) { _ in ShutdownNoiseFilter(upstream: base.handler) }
    }

    func log(event: LogEvent) {
        guard Self.isCancelledAcceptLoop(event) else {
            upstream.log(event: event)
            return
        }
        guard upstream.logLevel <= .debug else { return }
        var downgraded = event
        downgraded.level = .debug
        upstream.log(event: downgraded)
    }

    private static func isCancelledAcceptLoop(_ event: LogEvent) -> Bool {
        event.source == "HummingbirdCore"
            && event.message.description.hasPrefix("Waiting on child channel: CancellationError")
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { upstream[metadataKey: key] }
        set { upstream[metadataKey: key] = newValue }
    }

    var metadata: Logger.Metadata {
        get { upstream.metadata }
        set { upstream.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { upstream.logLevel }
        set { upstream.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { upstream.metadataProvider }
        set { upstream.metadataProvider = newValue }
    }
}
