// Fuzzes the offline queue's row reading (`SQLiteQueueStorage.item(from:)`): the input
// describes one `queued_write` row as a damaged or hand-edited database file could hold it.
//
// Every column of the table is present (as in `SELECT *` after the migrations); for each, in
// the order of `columns` below, one tag byte picks the SQLite storage class (tag % 5: 0 NULL,
// 1 INTEGER from the next 8 bytes big-endian, 2 REAL from the next 8 bytes' bit pattern,
// 3 TEXT and 4 BLOB of the length in the next byte); missing bytes read as NULL or zero.
// A row that reads as an item is then scheduled as the queue schedules it.
import Courier
import CourierFuzzSupport
import CourierSQLite
import Foundation
import GRDB

/// The process's entry point, which SwiftPM links as `main`: runs libFuzzer.
@_cdecl("FuzzQueueRow_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    courier_fuzz_run(argc, argv)
}

/// The columns of `queued_write` after migration v3.
private let columns = [
    "sequence", "id", "queue", "method", "url", "fields", "body", "idempotency_key", "created_at", "attempts", "last_error",
    "next_attempt_at", "state", "dead_letter_status", "dead_letter_body", "account", "invalidates", "body_is_personal",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes: [UInt8] = start != nil && count > 0 ? Array(UnsafeRawBufferPointer(start: start, count: count)) : []
    var reader = ColumnReader(bytes: bytes[...])
    var values: [String: (any DatabaseValueConvertible)?] = [:]
    for column in columns { values[column] = reader.value() }
    guard let item = SQLiteQueueStorage.item(from: Row(values)) else { return 0 }

    // A row is read leniently but never yields what the scheduler could trap on.
    guard item.attempts >= 0 else {
        fatalError("FuzzQueueRow: read \(item.attempts) attempts")
    }
    for (name, date) in [("created_at", item.createdAt), ("next_attempt_at", item.nextAttemptAt)] {
        guard date.timeIntervalSince1970.isFinite, abs(date.timeIntervalSince1970) <= 1e11 + 1 else {
            fatalError("FuzzQueueRow: read \(name) as \(date.timeIntervalSince1970), not a plausible date")
        }
    }

    // The next attempt, as the queue computes it: the attempt count goes up (saturating), the
    // backoff grows from it, and a failed attempt is retried after it.
    let attempts = max(0, min(item.attempts, Int.max - 1)) + 1
    let backoffs = [
        Backoff.exponential(base: .seconds(2), maxDelay: .seconds(300)),
        Backoff(.linear(initial: .seconds(1), increment: .seconds(1)), maxDelay: .seconds(30), jitter: .none),
    ]
    for backoff in backoffs {
        let delay = backoff.baseDelay(afterFailedAttempts: attempts)
        guard delay >= .zero, delay <= backoff.maxDelay else {
            fatalError("FuzzQueueRow: a backoff of \(delay) after \(attempts) attempts, outside 0...\(backoff.maxDelay)")
        }
        let step = QueueDecision.next(after: .answered(status: 503), attempts: attempts, maxAttempts: 5, delay: delay, now: item.nextAttemptAt)
        if case .retry(let date) = step { _ = date.timeIntervalSince(item.createdAt) }
    }
    _ = (item.fields.count, item.invalidates.count, item.body.count, item.bodyIsPersonalData, item.deadLetterStatus)
    return 0
}

/// Reads column values off the input.
private struct ColumnReader {
    var bytes: ArraySlice<UInt8>

    mutating func value() -> any DatabaseValueConvertible {
        guard let tag = bytes.popFirst() else { return DatabaseValue.null }
        switch tag % 5 {
        case 1:
            return Int64(bitPattern: word())
        case 2:
            return Double(bitPattern: word())
        case 3:
            let length = Int(bytes.popFirst() ?? 0)
            return String(decoding: take(length), as: UTF8.self)
        case 4:
            let length = Int(bytes.popFirst() ?? 0)
            return Data(take(length))
        default:
            return DatabaseValue.null
        }
    }

    /// The next 8 bytes, big-endian (fewer when the input ends).
    private mutating func word() -> UInt64 {
        take(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    private mutating func take(_ count: Int) -> ArraySlice<UInt8> {
        let part = bytes.prefix(count)
        bytes = bytes.dropFirst(count)
        return part
    }
}
