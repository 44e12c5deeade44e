import Foundation
import HTTPTypes

/// The chain stage, below retry and above auth, that keeps every attempt of a request within
/// its provider's quota (``QuotaPolicy``): it asks the quota before the attempt, waits for its
/// turn or fails with ``CourierError/Code/rateLimited``, and corrects the quota with what the
/// answer announces.
struct QuotaStage: Middleware {
    let policy: QuotaPolicy
    let clock: any CourierClock
    let auth: SessionResolver

    /// The endpoint name of the offline queue's deliveries, which always wait.
    static let replayEndpoint = "offline.replay"

    func intercept(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: Next) async throws -> (HTTPResponse, HTTPBody?) {
        guard let rule = policy.rules.first(where: { $0.matches(authority: request.authority) }) else {
            return try await next(request, body, context)
        }
        var key = rule.name
        if rule.perAccount, let account = await auth.credential(for: context.options)?.accountID ?? context.options.account { key += "|" + account }
        let waits = policy.whenExhausted == .wait || context.endpoint == Self.replayEndpoint
        var admittedAt = clock.date
        while case .wait(let until) = try await policy.store.admit(key: key, windows: rule.windows, at: admittedAt) {
            let wait = Duration.clampedSeconds(max(0, until.timeIntervalSince(clock.date)))
            let pastDeadline = context.endpoint != Self.replayEndpoint && context.deadline.map { clock.now.advanced(by: wait) > $0 } == true
            guard waits, !pastDeadline else {
                var error = CourierError(
                    code: .rateLimited,
                    message: "the \(rule.name) quota is spent for \(Int(wait.timeInterval.rounded(.up))) s" + (pastDeadline ? ", past the call's deadline" : "")
                )
                error.retryAfter = wait
                throw error
            }
            try await clock.sleep(for: wait)
            admittedAt = clock.date
        }
        let response: HTTPResponse
        let responseBody: HTTPBody?
        do {
            (response, responseBody) = try await next(request, body, context)
        } catch {
            // It may have reached the server before failing: it holds its place until now.
            try? await policy.store.settle(key: key, admittedAt: admittedAt, endedAt: clock.date)
            throw error
        }
        // A store that cannot take the settlement or correction (a database that is down) costs the call nothing.
        try? await policy.store.settle(key: key, admittedAt: admittedAt, endedAt: clock.date)
        if let announcement = QuotaAnnouncement.read(status: response.status.code, fields: response.headerFields, now: clock.date) {
            try? await policy.store.correct(key: key, windows: rule.windows, with: announcement, at: clock.date)
        }
        return (response, responseBody)
    }
}
