import Foundation
import HTTPTypes

/// The chain stage that answers from the ``HTTPCache`` when the rules allow, revalidates
/// stale responses, stores what may be stored, and invalidates after unsafe requests.
///
/// It runs before retry and authentication: a hit costs no network and no credential; a miss
/// or revalidation goes down the chain like any request. Storage failures never fail a
/// request: the cache is treated as empty.
struct CacheStage: Middleware {
    let cache: HTTPCache
    let defaultPolicy: CachePolicy
    let auth: SessionResolver
    /// The client's base URL, which ``RequestOptions/invalidates`` paths are relative to.
    let base: RequestTarget.Base

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: @escaping Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let policy = context.options.cachePolicy ?? defaultPolicy
        guard request.method == .get else {
            return try await passUnsafe(request, body: body, context: context, next: next)
        }
        guard policy != .bypass else { return try await next(request, body, context) }
        let key = CacheKey(
            method: "GET", url: Self.url(of: request),
            partition: await UserPartition.of(request, context: context, auth: auth, digest: cache.credentialDigest)
        )
        let variants = ((try? await cache.storage.variants(for: key)) ?? []).filter(\.isWellFormed)
        let lookup = CacheDecision.lookup(
            request: request.headerFields, variants: variants, policy: policy,
            now: cache.clock.date, heuristicFraction: cache.heuristicFraction, digest: cache.credentialDigest
        )
        switch lookup {
        case .serve(let stored, let status):
            let reason = status == .hit ? "fresh" : "stale, which the request or the cache policy accepts"
            return served(stored, status: status, reason: reason, for: request, context: context)
        case .gatewayTimeout:
            if policy == .cacheOnly {
                throw CourierError(code: .notCached, message: "the request may only be answered from the cache, and nothing usable is stored for it")
            }
            // A request's own `only-if-cached` gets HTTP's answer (RFC 9111, 5.2.1.7).
            return (HTTPResponse(status: .gatewayTimeout), HTTPBody("nothing usable is stored for this request"))
        case .serveAndRefresh(let stored, let conditions):
            refreshInBackground(request, conditions: conditions, stored: stored, key: key, policy: policy, context: context, next: next)
            return served(stored, status: .stale, reason: "stale-while-revalidate: refreshing in the background", for: request, context: context)
        case .revalidate(let stored, let conditions):
            context.record.note(.cacheMiss(revalidating: true))
            return try await fetch(request, conditions: conditions, stored: stored, fallback: stored, key: key, policy: policy, context: context, next: next)
        case .network(let fallback):
            context.record.note(.cacheMiss(revalidating: false))
            return try await fetch(request, conditions: nil, stored: nil, fallback: fallback, key: key, policy: policy, context: context, next: next)
        }
    }

    // MARK: - Network

    private func fetch(
        _ request: HTTPRequest, conditions: HTTPFields?, stored: CachedResponse?, fallback: CachedResponse?,
        key: CacheKey, policy: CachePolicy, context: RequestContext, next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var outgoing = request
        for field in conditions ?? [:] where !outgoing.headerFields.contains(field.name) {
            outgoing.headerFields.append(field)
        }
        if policy == .noCache && !outgoing.headerFields.contains(.cacheControl) {
            // "Always ask the server" holds for caches between us and it, too.
            outgoing.headerFields[.cacheControl] = "max-age=0"
        }
        let requestDate = cache.clock.date
        let response: HTTPResponse
        let responseBody: HTTPBody?
        do {
            (response, responseBody) = try await next(outgoing, nil, context)
        } catch let error as CourierError where error.code != .cancelled {
            if let fallback, policy == .networkFirst
                || CacheDecision.mayServeOnError(fallback, request: request.headerFields, now: cache.clock.date)
                || (Self.disconnectionCodes.contains(error.code) && CacheDecision.mayServeWhenDisconnected(fallback, request: request.headerFields)) {
                return served(fallback, status: .stale, reason: "the network failed (\(error.code)), and a stale response may stand in", for: request, context: context)
            }
            if fallback != nil, Self.disconnectionCodes.contains(error.code) {
                // RFC 9111, 5.2.2.2: a stored response that must be revalidated, and no server to
                // ask: the cache answers 504 rather than reuse it.
                let explanation = "the stored response must be revalidated, and the server could not be reached: \(error.code): \(error.message)"
                return (HTTPResponse(status: .gatewayTimeout, headerFields: [.contentType: "text/plain; charset=utf-8"]), HTTPBody(explanation))
            }
            throw error
        }
        let responseDate = cache.clock.date
        // Stored under the identity that signed the request as it went out, not the one
        // looked up before: a sign-in, sign-out or refresh may have happened in between.
        var key = key
        key.partition = UserPartition.storePartition(lookedUp: key.partition, record: context.record, digest: cache.credentialDigest)

        if response.status.code == 304, let stored, conditions != nil {
            _ = await responseBody?.prefix(upTo: 64 << 10)
            let updated = CacheRules.updated(stored, with: response.headerFields, requestDate: requestDate, responseDate: responseDate)
            try? await cache.storage.store(updated, for: key)
            return served(updated, status: .revalidated, reason: "the server answered 304 Not Modified", for: request, context: context)
        }
        if response.status.code >= 500, let fallback,
           policy == .networkFirst || CacheDecision.mayServeOnError(fallback, request: request.headerFields, now: responseDate) {
            _ = await responseBody?.prefix(upTo: 64 << 10)
            return served(fallback, status: .stale, reason: "the server answered \(response.status.code), and a stale response may stand in", for: request, context: context)
        }
        let ttl: Bool = if case .ttl = policy { true } else { false }
        guard CacheRules.isStorable(method: request.method, request: request.headerFields, response: response, ttlOverride: ttl),
              !ContentCoding.leftEncoded(response.headerFields) else {
            // A body left in gzip or deflate (its caller set its own Accept-Encoding) is not
            // stored: the next caller expects it decoded, and a server that forgets
            // `Vary: Accept-Encoding` would have it served the encoded bytes.
            return (response, responseBody)
        }
        let data: Data
        switch responseBody?.length ?? .known(0) {
        case .known(let length):
            guard length <= Int64(cache.maxEntryBytes) else { return (response, responseBody) }
            data = try await responseBody?.collect(upTo: cache.maxEntryBytes) ?? Data()
        case .unknown:
            // A chunked or decoded body tells its size only once read. The caller gathers it
            // anyway (streamed calls bypass the cache), up to its own limit: read it here
            // under the larger of the two limits, and store it if it fits.
            data = try await responseBody?.collect(upTo: max(cache.maxEntryBytes, context.options.maxResponseBytes ?? 0)) ?? Data()
            guard data.count <= cache.maxEntryBytes else { return (response, HTTPBody(data)) }
        }
        var entry = CachedResponse(
            status: response.status.code, fields: CacheRules.storedFields(response.headerFields), body: data,
            requestDate: requestDate, responseDate: responseDate,
            varyValues: CacheDecision.varyValues(response: response.headerFields, request: request.headerFields, digest: cache.credentialDigest)
        )
        if case .ttl(let lifetime) = policy, !Self.hasExplicitFreshness(response) {
            entry.fields.append(.init(name: "Cache-Control", value: "max-age=\(Int(lifetime.timeInterval))"))
        }
        try? await cache.storage.store(entry, for: key)
        return (response, HTTPBody(data))
    }

    /// Refreshes a stale response after it was served: tells ``HTTPCache/updates()`` observers
    /// when a newer response was stored, and hands the fresh response (whatever its status)
    /// to the call's record, for callers that wait for it (``APIClient/cachedThenFresh(_:)``).
    private func refreshInBackground(
        _ request: HTTPRequest, conditions: HTTPFields?, stored: CachedResponse,
        key: CacheKey, policy: CachePolicy, context: RequestContext, next: @escaping Next
    ) {
        let stage = self
        let background = RequestContext(
            endpoint: context.endpoint, options: context.options, deadline: context.deadline, transportDeadline: context.transportDeadline,
            credentialScope: context.credentialScope
        )
        stage.cache.refreshes.started()
        let refresh = Task { () throws -> RefreshedResponse in
            defer { stage.cache.refreshes.ended() }
            let started = stage.cache.clock.date
            let (response, body) = try await stage.fetch(
                request, conditions: conditions, stored: stored, fallback: nil, key: key, policy: .http, context: background, next: next
            )
            let data = try await body?.collect(upTo: stage.cache.maxEntryBytes) ?? Data()
            if let fresh = try? await stage.cache.storage.variants(for: key).first, fresh.responseDate >= started {
                stage.cache.publish(HTTPCache.Update(key: key, response: fresh))
            }
            return RefreshedResponse(response: response, body: data, cacheStatus: background.record.cacheStatus)
        }
        context.record.noteBackgroundRefresh(refresh)
    }

    private func passUnsafe(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: Next) async throws -> (HTTPResponse, HTTPBody?) {
        let result = try await next(request, body, context)
        guard ![.head, .options, .trace].contains(request.method) else { return result }
        let partition = UserPartition.storePartition(
            lookedUp: await UserPartition.of(request, context: context, auth: auth, digest: cache.credentialDigest),
            record: context.record, digest: cache.credentialDigest
        )
        for url in CacheRules.invalidatedURLs(requestURL: Self.url(of: request), response: result.0) {
            for keyPartition in Set([partition, ""]) {
                try? await cache.storage.remove(CacheKey(method: "GET", url: url, partition: keyPartition))
            }
        }
        if (200..<400).contains(result.0.status.code) {
            for path in context.options.invalidates {
                guard let target = try? RequestTarget.make(base: base, path: path, query: []) else { continue }
                try? await cache.storage.removeAll(under: "\(target.scheme)://\(target.authority)\(target.pathAndQuery)")
            }
        }
        return result
    }

    // MARK: - Helpers

    private func served(
        _ stored: CachedResponse, status: CacheStatus, reason: String, for request: HTTPRequest, context: RequestContext
    ) -> (HTTPResponse, HTTPBody?) {
        context.record.noteCacheStatus(status)
        context.record.note(.cacheServed(status, reason: reason))
        if let memo = stored.memo { context.record.noteDecodedMemo(memo) }
        var head = stored.response
        head.headerFields[.age] = Freshness.ageHeaderValue(Freshness.age(of: stored, now: cache.clock.date))
        if let range = request.headerFields[.range], stored.status == 200,
           request.headerFields[.ifRange].map({ ByteRange.ifRangeHolds($0, etag: stored.values("ETag").first, lastModified: stored.values("Last-Modified").first) }) ?? true,
           let selection = ByteRange.selection(range, length: stored.body.count) {
            head.status = .partialContent
            head.headerFields[.contentRange] = "bytes \(selection.lowerBound)-\(selection.upperBound - 1)/\(stored.body.count)"
            head.headerFields[.contentLength] = String(selection.count)
            return (head, HTTPBody(stored.body.subdata(in: selection)))
        }
        return (head, HTTPBody(stored.body))
    }

    /// Failures that mean the server could not be reached, as opposed to a server error.
    private static let disconnectionCodes: Set<CourierError.Code> = [.offline, .cannotConnect, .connectionLost, .timedOut]

    static func url(of request: HTTPRequest) -> String {
        "\(request.scheme ?? "https")://\(ASCII.lowercased(request.authority ?? ""))\(request.path ?? "/")"
    }

    private static func hasExplicitFreshness(_ response: HTTPResponse) -> Bool {
        let control = CacheControl(response.headerFields[values: .cacheControl])
        return control.has("max-age") || response.headerFields.contains(.expires)
    }
}
