public import Foundation

/// The pure state of credential refreshes: which credential is current, whether a refresh is
/// running, whether the last one failed for good, and how many refreshes happened lately.
///
/// ``AuthSession`` feeds it events and carries out the actions it returns; the rules live
/// here so they are tested without I/O:
/// - any number of requests that need a refresh at once get one refresh (single flight);
/// - a request rejected with an older credential than the current one is replayed with the
///   current one, without another refresh;
/// - after a refresh is refused, every request fails at once until the user signs in;
/// - more than ``maxRefreshes`` refreshes within ``loopWindow`` stop with a loop error.
public struct RefreshCoordinatorState: Sendable {
    /// What the session should do next.
    public enum Action: Sendable, Hashable {
        /// Use this credential.
        case use(Credential)
        /// Start a refresh of this credential; everyone else joins it.
        case startRefresh(Credential)
        /// A refresh is already running: wait for it.
        case join
        /// Fail the request with ``CourierError/Code/unauthorized`` and this message.
        case fail(String)
    }

    private enum Phase: Sendable {
        case idle
        case refreshing
        case failed(String)
    }

    /// The credential in force, if any.
    public private(set) var credential: Credential?
    private var phase: Phase = .idle
    private var recentRefreshes: [Date] = []

    /// The most refreshes allowed within ``loopWindow``.
    public let maxRefreshes: Int
    /// The window of the loop guard.
    public let loopWindow: Duration

    /// Makes a state.
    /// - Parameters:
    ///   - credential: The credential at start, if signed in.
    ///   - maxRefreshes: The most refreshes within `loopWindow` (3 by default).
    ///   - loopWindow: The loop guard's window (30 seconds by default).
    public init(credential: Credential?, maxRefreshes: Int = 3, loopWindow: Duration = .seconds(30)) {
        self.credential = credential
        self.maxRefreshes = maxRefreshes
        self.loopWindow = loopWindow
    }

    /// Whether requests fail at once: the last refresh was refused, or the user signed out.
    public var hasFailed: Bool {
        if case .failed = phase { return true }
        return false
    }

    /// Whether a refresh is running.
    public var isRefreshing: Bool {
        if case .refreshing = phase { return true }
        return false
    }

    /// A request needs a credential to sign with.
    /// - Parameters:
    ///   - date: The current date.
    ///   - margin: How early before expiry to refresh.
    public mutating func credentialNeeded(at date: Date, margin: Duration) -> Action {
        switch phase {
        case .failed(let message): return .fail(message)
        case .refreshing: return .join
        case .idle: break
        }
        guard let credential else { return .fail("not signed in") }
        guard credential.needsRefresh(at: date, margin: margin), credential.refreshToken != nil else {
            return .use(credential)
        }
        return beginRefresh(of: credential, at: date)
    }

    /// The server rejected a request signed with `rejected`.
    /// - Parameters:
    ///   - rejected: The credential the request carried.
    ///   - date: The current date.
    public mutating func rejected(_ rejected: Credential, at date: Date) -> Action {
        switch phase {
        case .failed(let message): return .fail(message)
        case .refreshing: return .join
        case .idle: break
        }
        guard let credential else { return .fail("not signed in") }
        if credential.accessToken != rejected.accessToken { return .use(credential) }
        guard credential.refreshToken != nil else {
            phase = .failed("the credential was rejected and cannot be refreshed")
            return .fail("the credential was rejected and cannot be refreshed")
        }
        return beginRefresh(of: credential, at: date)
    }

    /// The refresh produced a new credential.
    public mutating func refreshSucceeded(_ credential: Credential) {
        self.credential = credential
        phase = .idle
    }

    /// The refresh failed.
    /// - Parameters:
    ///   - message: Why.
    ///   - isFinal: `true` when the credential cannot be renewed (the user must sign in);
    ///     `false` for a passing failure (network, server error), which only fails the waiters.
    public mutating func refreshFailed(_ message: String, isFinal: Bool) {
        phase = isFinal ? .failed(message) : .idle
    }

    /// The user signed in: a new credential, and a clean slate.
    public mutating func signedIn(_ credential: Credential) {
        self.credential = credential
        phase = .idle
        recentRefreshes.removeAll()
    }

    /// The user signed out.
    public mutating func signedOut() {
        credential = nil
        phase = .failed("signed out")
        recentRefreshes.removeAll()
    }

    private mutating func beginRefresh(of credential: Credential, at date: Date) -> Action {
        let windowStart = date.addingTimeInterval(-loopWindow.timeInterval)
        recentRefreshes.removeAll { $0 < windowStart }
        guard recentRefreshes.count < maxRefreshes else {
            let message = "refresh loop: more than \(maxRefreshes) refreshes within \(loopWindow); sign in again"
            phase = .failed(message)
            return .fail(message)
        }
        recentRefreshes.append(date)
        phase = .refreshing
        return .startRefresh(credential)
    }
}
