/// permessage-deflate (RFC 7692): WebSocket messages compressed with DEFLATE, when the server
/// agrees to it in the handshake.
///
/// ``WebSocketConfiguration/compression`` offers it by default; set it to `nil` to offer
/// nothing. A server that does not take it up gets uncompressed messages, as before.
///
/// The defaults: the full 32 KiB window each way and context takeover (each message may refer
/// to the ones before it, which compresses a stream of similar JSON messages best), messages
/// under 256 bytes sent as they are (DEFLATE's overhead outweighs its gain there). A decoded
/// message is bounded by ``WebSocketConfiguration/maxMessageBytes``, as an uncompressed one is;
/// one that inflates past it ends the connection with 1011 (swift-websocket's extension
/// reports it as an internal error) rather than the 1009 of an uncompressed one.
public struct WebSocketCompression: Sendable, Hashable {
    /// The largest window, in bits (9 to 15; 8, which zlib no longer supports for raw
    /// DEFLATE, counts as 9), the client offers and accepts for both directions; `nil` leaves
    /// it to the default, 15 (32 KiB). A smaller window is what saves memory per connection.
    public var maxWindowBits: Int?
    /// Whether the compressor starts afresh for every message, each way: messages no longer
    /// refer to earlier ones, which compresses a stream of similar messages less well (zlib
    /// keeps its window allocated either way). `false` by default.
    public var noContextTakeover: Bool
    /// Messages shorter than this many bytes are sent uncompressed.
    public var minMessageBytes: Int

    /// Makes settings.
    /// - Parameters:
    ///   - maxWindowBits: The window in bits, 9 to 15; `nil` for the default (15).
    ///   - noContextTakeover: Whether each message is compressed on its own.
    ///   - minMessageBytes: The shortest message compressed (256 bytes by default).
    public init(maxWindowBits: Int? = nil, noContextTakeover: Bool = false, minMessageBytes: Int = 256) {
        self.maxWindowBits = maxWindowBits.map { min(15, max(9, $0)) }
        self.noContextTakeover = noContextTakeover
        self.minMessageBytes = max(0, minMessageBytes)
    }

    /// permessage-deflate with the defaults above.
    public static let perMessageDeflate = WebSocketCompression()
}
