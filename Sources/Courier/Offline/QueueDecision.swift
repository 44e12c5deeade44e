public import Foundation

/// The offline queue's decisions after a delivery attempt, as a pure function: delivered,
/// try again later, or dead-letter.
public enum QueueDecision {
    /// How one delivery attempt ended.
    public enum Outcome: Sendable, Hashable {
        /// The server answered with this status.
        case answered(status: Int)
        /// The request failed before an answer, with this code.
        case failed(CourierError.Code)
    }

    /// What to do with the item.
    public enum Step: Sendable, Hashable {
        /// Remove it: the server has it.
        case delivered
        /// Keep it and try again at this moment.
        case retry(at: Date)
        /// Move it to the dead-letter list, for this reason.
        case deadLetter(String)
        /// Keep it, do not count the attempt, and hold the whole queue until a credential is
        /// available again: the server asked for sign-in.
        case waitForSignIn
    }

    /// Decides what follows an attempt.
    ///
    /// - 2xx and 3xx: delivered.
    /// - 401, or no credential to sign with: wait for sign-in.
    /// - 4xx other than 401, 408, 409 and 429: dead-letter at once; sending it again will not help.
    /// - 408, 409 (the same key still in flight), 429, 5xx, and failures to reach the server:
    ///   retry after the backoff, until
    ///   `maxAttempts` attempts have been made; then dead-letter. Never deleted silently.
    /// - Cancellation: retry at once (the app stopped mid-delivery; it does not count against the item).
    /// - Parameters:
    ///   - outcome: How the attempt ended.
    ///   - attempts: Attempts made so far, this one included.
    ///   - maxAttempts: The most attempts allowed.
    ///   - delay: The wait before the next attempt.
    ///   - now: The current date.
    public static func next(after outcome: Outcome, attempts: Int, maxAttempts: Int, delay: Duration, now: Date) -> Step {
        switch outcome {
        case .answered(let status) where (200..<400).contains(status):
            return .delivered
        case .answered(401), .failed(.unauthorized):
            return .waitForSignIn
        case .answered(let status) where (400..<500).contains(status) && ![408, 409, 429].contains(status):
            return .deadLetter("the server refused it with \(status)")
        case .failed(.cancelled):
            return .retry(at: now)
        case .failed(let code) where !retryableFailures.contains(code):
            return .deadLetter("it cannot be sent: \(code)")
        default:
            guard attempts < maxAttempts else { return .deadLetter("\(attempts) attempts failed") }
            return .retry(at: now.addingTimeInterval(delay.timeInterval))
        }
    }

    /// Failures worth trying again later: the server could not be reached or did not answer in time.
    static let retryableFailures: Set<CourierError.Code> = [.offline, .cannotConnect, .connectionLost, .timedOut, .transportFailed, .serverError, .rateLimited]
}
