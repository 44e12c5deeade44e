import Foundation
import Synchronization

/// The value last decoded from a stored body, kept beside it in the memory tier so that a
/// memory hit returns the decoded value without running the JSON decoder again.
///
/// A memo remembers one value: the type, the decoder object and the exact body bytes it was
/// decoded from. It answers only when all three match, so a middleware that rewrote the body,
/// another type or another decoder decode afresh. A decoder is taken as fixed once used: a
/// client that changes its decoder's strategies between calls should use a new decoder.
/// The memo holds the decoder strongly, so its identity cannot be reused by another object.
///
/// It takes no part in a ``CachedResponse``'s equality, hashing or encoding: two entries
/// with the same response are equal whatever their memos hold.
///
/// A `final class` whose only state sits in a `Mutex`, which makes it `Sendable`.
final class DecodedValueMemo: Sendable, Hashable {
    private struct Entry: Sendable {
        let type: ObjectIdentifier
        let decoder: JSONDecoder
        let body: Data
        let value: any Sendable
    }

    private let entry = Mutex<Entry?>(nil)

    /// The value decoded earlier from these bytes with this decoder, if any.
    func value<Value: Sendable>(_: Value.Type, decoder: JSONDecoder, body: Data) -> Value? {
        entry.withLock { entry in
            guard let entry, entry.type == ObjectIdentifier(Value.self), entry.decoder === decoder, entry.body == body else { return nil }
            return entry.value as? Value
        }
    }

    /// Remembers a value decoded from these bytes with this decoder, replacing any other.
    func keep<Value: Sendable>(_ value: Value, decoder: JSONDecoder, body: Data) {
        entry.withLock { $0 = Entry(type: ObjectIdentifier(Value.self), decoder: decoder, body: body, value: value) }
    }

    /// Every memo equals every other: a memo is a cache of a decoding, not part of the response.
    static func == (lhs: DecodedValueMemo, rhs: DecodedValueMemo) -> Bool { true }

    /// Hashes nothing, to agree with `==`.
    func hash(into hasher: inout Hasher) {}
}
