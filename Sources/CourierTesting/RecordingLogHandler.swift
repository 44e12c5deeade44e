public import Logging
import Synchronization

/// A swift-log handler that keeps every message, for asserting on logs in tests.
///
/// ```swift
/// let recorder = LogRecorder()
/// let logger = Logger(label: "test") { _ in RecordingLogHandler(recorder: recorder, level: .debug) }
/// // … use the logger …
/// #expect(!recorder.text.contains("secret-token"))
/// ```
public struct RecordingLogHandler: LogHandler {
    /// The recorder that receives the messages.
    public let recorder: LogRecorder
    /// The handler's metadata.
    public var metadata: Logger.Metadata = [:]
    /// The lowest level recorded.
    public var logLevel: Logger.Level

    /// Makes a handler.
    /// - Parameters:
    ///   - recorder: Where messages go.
    ///   - level: The lowest level recorded.
    public init(recorder: LogRecorder, level: Logger.Level = .trace) {
        self.recorder = recorder
        self.logLevel = level
    }

    /// Gets or sets one metadata value.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Records a message with its merged metadata.
    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        recorder.append(LogRecorder.Entry(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
    }
}

/// Collects log entries from any number of ``RecordingLogHandler``s.
///
/// A `final class` whose entries sit in a `Mutex`, which makes it `Sendable`.
public final class LogRecorder: Sendable {
    /// One recorded message.
    public struct Entry: Sendable, Hashable {
        /// Its level.
        public var level: Logger.Level
        /// Its text.
        public var message: String
        /// Its metadata, rendered as text.
        public var metadata: [String: String]

        /// The message followed by its metadata, as one line.
        public var line: String {
            let rendered = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            return rendered.isEmpty ? message : "\(message) \(rendered)"
        }
    }

    private let entries = Mutex<[Entry]>([])

    /// Makes an empty recorder.
    public init() {}

    /// Adds an entry.
    public func append(_ entry: Entry) {
        entries.withLock { $0.append(entry) }
    }

    /// Every entry so far.
    public var all: [Entry] {
        entries.withLock { $0 }
    }

    /// Every entry's ``Entry/line``, joined by newlines: what a log file would hold.
    public var text: String {
        all.map(\.line).joined(separator: "\n")
    }
}
