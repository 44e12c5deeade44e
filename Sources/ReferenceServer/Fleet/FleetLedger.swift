/// What the reference server saw of a fleet benchmark: several client processes that write,
/// spend a shared quota, share one OAuth credential and revalidate cached resources, all
/// against the routes under `/fleet/` (see `FleetRoutes`).
///
/// The ledger only counts; the clients' own figures are compared with ``stats()`` afterwards.
/// ``reset()`` clears every count, and `POST /fleet/setup` calls it before ``setup(accessToken:refreshToken:quotaWindowSeconds:)``.
public actor FleetLedger {
    /// What became of a write given to ``record(write:seq:account:idempotencyKey:)``.
    public enum WriteOutcome: Sendable, Hashable {
        /// The write was applied: its idempotency key had not been seen before.
        case applied
        /// The write's idempotency key had been seen already: it was not applied again.
        case replayed
    }

    /// The quota window used until ``setup(accessToken:refreshToken:quotaWindowSeconds:)`` sets one, in seconds.
    public static let defaultQuotaWindowSeconds = 15.0

    /// Beyond this many aligned windows between the first and the last arrival, ``quotaFigures(arrivals:window:)``
    /// reports no full windows rather than index them.
    private static let maximumWindowCount = 1e12

    private var seenKeys: Set<String> = []
    private var appliedWrites: Set<Int> = []
    private var lastSeq: [String: Int] = [:]
    private var applied = 0
    private var redeliveries = 0
    private var duplicates = 0
    private var orderViolations = 0

    private var arrivals: [Double] = []
    private var quotaWindowSeconds = FleetLedger.defaultQuotaWindowSeconds

    private var currentAccessToken: String?
    private var currentRefreshToken: String?
    private var initialRefreshToken: String?
    private var issuedPairs = 0
    private var uses: [String: Int] = [:]
    private var refreshCalls = 0
    private var protectedOK = 0
    private var protectedRejected = 0

    private var fullResponses = 0
    private var revalidations = 0

    /// Creates an empty ledger with no credential and the default quota window.
    public init() {}

    // MARK: Writes

    /// Records a write a client sent.
    ///
    /// A key seen before is a redelivery: the write is not applied again. Otherwise the write is
    /// applied; it counts as a duplicate when the same write id was applied before under another
    /// key, and as an order violation when its `seq` is lower than the last one applied for
    /// the account (the account's last seq is the highest seen).
    /// - Parameters:
    ///   - write: The write's id, the same for every delivery of one logical write.
    ///   - seq: The write's position in its account's sequence.
    ///   - account: The account the write belongs to.
    ///   - idempotencyKey: The request's `Idempotency-Key`.
    /// - Returns: Whether the write was applied or replayed.
    public func record(write: Int, seq: Int, account: String, idempotencyKey: String) -> WriteOutcome {
        guard seenKeys.insert(idempotencyKey).inserted else {
            redeliveries += 1
            return .replayed
        }
        applied += 1
        if !appliedWrites.insert(write).inserted { duplicates += 1 }
        if let last = lastSeq[account] {
            if seq < last { orderViolations += 1 }
            lastSeq[account] = max(last, seq)
        } else {
            lastSeq[account] = seq
        }
        return .applied
    }

    /// The bearer token that authorizes writes for an account: always `fleet-token-<account>`,
    /// so every client process can derive it without asking the server.
    /// - Parameter account: The account, as it appears in the route's path.
    /// - Returns: `"fleet-token-" + account`.
    public nonisolated func accountToken(for account: String) -> String {
        "fleet-token-\(account)"
    }

    // MARK: Quota

    /// Records a call to the quota-limited route.
    /// - Parameter seconds: When it arrived, in seconds on any clock shared by every call
    ///   (the route uses seconds since 1970).
    public func recordQuotaCall(at seconds: Double) {
        arrivals.append(seconds)
    }

    // MARK: Shared credential

    /// Installs the shared OAuth credential and the quota window; counts are left as they are
    /// (call ``reset()`` first to start afresh).
    /// - Parameters:
    ///   - accessToken: The access token that ``isCurrentAccessToken(_:)`` accepts until the next refresh.
    ///   - refreshToken: The refresh token that ``refresh(presented:)`` accepts; ``FleetStats/refreshTokenUses``
    ///     counts how often this one is presented.
    ///   - quotaWindowSeconds: The length of a quota window, in seconds, for ``stats()``.
    public func setup(accessToken: String, refreshToken: String, quotaWindowSeconds: Double) {
        currentAccessToken = accessToken
        currentRefreshToken = refreshToken
        initialRefreshToken = refreshToken
        self.quotaWindowSeconds = quotaWindowSeconds
    }

    /// Uses a refresh token: counts that it was presented and, when it is the current one,
    /// rotates the credential to a new pair `fleet-access-<n>` / `fleet-refresh-<n>` (`n` counting up from 1).
    /// - Parameter presented: The refresh token the client sent.
    /// - Returns: The new access and refresh token, or `nil` when `presented` is not the current refresh token.
    public func refresh(presented: String) -> (access: String, refresh: String)? {
        uses[presented, default: 0] += 1
        guard let current = currentRefreshToken, Self.same(presented, current) else { return nil }
        refreshCalls += 1
        issuedPairs += 1
        let pair = (access: "fleet-access-\(issuedPairs)", refresh: "fleet-refresh-\(issuedPairs)")
        currentAccessToken = pair.access
        currentRefreshToken = pair.refresh
        return pair
    }

    /// Whether a token is the shared credential's current access token.
    /// - Parameter token: The bearer token a client sent.
    /// - Returns: `true` only when a credential is set up and `token` is its latest access token.
    public func isCurrentAccessToken(_ token: String) -> Bool {
        guard let current = currentAccessToken else { return false }
        return Self.same(token, current)
    }

    /// Counts a call to the protected route.
    /// - Parameter ok: Whether it was accepted (`true`) or rejected with 401 (`false`).
    public func protectedCall(ok: Bool) {
        if ok { protectedOK += 1 } else { protectedRejected += 1 }
    }

    // MARK: Cache

    /// Counts a resource answered in full (200 with its body).
    public func recordFullResponse() {
        fullResponses += 1
    }

    /// Counts a resource revalidated (304 to a matching `If-None-Match`).
    public func recordRevalidation() {
        revalidations += 1
    }

    // MARK: Figures

    /// Clears every count, arrival, key and credential, and restores the default quota window.
    public func reset() {
        seenKeys = []
        appliedWrites = []
        lastSeq = [:]
        (applied, redeliveries, duplicates, orderViolations) = (0, 0, 0, 0)
        arrivals = []
        quotaWindowSeconds = Self.defaultQuotaWindowSeconds
        (currentAccessToken, currentRefreshToken, initialRefreshToken) = (nil, nil, nil)
        issuedPairs = 0
        uses = [:]
        (refreshCalls, protectedOK, protectedRejected) = (0, 0, 0)
        (fullResponses, revalidations) = (0, 0)
    }

    /// Everything counted since the last ``reset()``, the quota figures computed over the
    /// current window (see ``quotaFigures(arrivals:window:)``).
    /// - Returns: The counts.
    public func stats() -> FleetStats {
        let quota = Self.quotaFigures(arrivals: arrivals, window: quotaWindowSeconds)
        return FleetStats(
            applied: applied, redeliveries: redeliveries, duplicates: duplicates, orderViolations: orderViolations,
            quotaCalls: arrivals.count, maxInWindow: quota.maxInWindow,
            minUsedPerWindow: quota.minUsedPerFullWindow, fullWindows: quota.fullWindows,
            refreshCalls: refreshCalls, refreshTokenUses: initialRefreshToken.map { uses[$0] ?? 0 } ?? 0,
            protectedOK: protectedOK, protectedRejected: protectedRejected,
            fullResponses: fullResponses, revalidations: revalidations
        )
    }

    /// How a quota was used, from the arrival times of its calls.
    ///
    /// - `maxInWindow`: the most arrivals in any half-open interval `[t, t + window)`;
    /// - windows aligned at the first arrival `t0`: window `k` is `[t0 + k·window, t0 + (k+1)·window)`,
    ///   full when its end is at or before the last arrival; `minUsedPerFullWindow` is the least
    ///   number of arrivals in a full window (0 when none is full), `fullWindows` their number.
    ///
    /// Arrivals that are not finite are ignored; no arrival, or a window that is not positive and
    /// finite (or too small to change the arrival times when added to them), gives `(0, 0, 0)`.
    /// When the arrivals span more than 10¹² windows, no window is reported full.
    /// - Parameters:
    ///   - arrivals: The arrival times in seconds, in any order.
    ///   - window: The window's length in seconds.
    /// - Returns: The figures.
    public static func quotaFigures(arrivals: [Double], window: Double) -> (maxInWindow: Int, minUsedPerFullWindow: Int, fullWindows: Int) {
        let sorted = arrivals.filter(\.isFinite).sorted()
        // A window too small to move the arrival times (below their ulp) could not be stepped through.
        guard let first = sorted.first, let last = sorted.last, window.isFinite, window > 0,
              first + window > first, last + window > last else { return (0, 0, 0) }

        var maxInWindow = 0
        var left = 0
        for right in sorted.indices {
            while left < right, sorted[right] >= sorted[left] + window { left += 1 }
            maxInWindow = max(maxInWindow, right - left + 1)
        }

        let span = (last - first) / window
        guard span.isFinite, span <= maximumWindowCount else { return (maxInWindow, 0, 0) }
        func start(_ k: Int) -> Double { first + Double(k) * window }
        var fullWindows = Int(span.rounded(.down))
        while start(fullWindows + 1) <= last { fullWindows += 1 }
        while fullWindows > 0, start(fullWindows) > last { fullWindows -= 1 }
        guard fullWindows > 0 else { return (maxInWindow, 0, 0) }

        var counts = [Int: Int]()
        for time in sorted {
            var k = Int(((time - first) / window).rounded(.down))
            while k > 0, time < start(k) { k -= 1 }
            while time >= start(k + 1) { k += 1 }
            if k < fullWindows { counts[k, default: 0] += 1 }
        }
        let minUsed = counts.count < fullWindows ? 0 : counts.values.min() ?? 0
        return (maxInWindow, minUsed, fullWindows)
    }

    /// Whether two tokens are equal, in a time that does not depend on where they differ.
    private static func same(_ lhs: String, _ rhs: String) -> Bool {
        ConstantTimeComparison.equal(Array(lhs.utf8), Array(rhs.utf8))
    }
}
