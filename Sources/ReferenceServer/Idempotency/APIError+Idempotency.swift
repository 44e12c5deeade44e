import Hummingbird

extension APIError {
    /// 400 `invalid_idempotency_key`: the `Idempotency-Key` header is empty or too long.
    static func invalidIdempotencyKey(maximumLength: Int) -> APIError {
        APIError(
            status: .badRequest,
            code: "invalid_idempotency_key",
            message: "Idempotency-Key must be 1 to \(maximumLength) characters"
        )
    }

    /// 409 `idempotency_key_in_flight`: a request with this key is still being processed.
    static func idempotencyKeyInFlight() -> APIError {
        APIError(
            status: .conflict,
            code: "idempotency_key_in_flight",
            message: "a request with this Idempotency-Key is still being processed"
        )
    }

    /// 503 `idempotency_store_full`: every kept key belongs to a request still running, so a
    /// new key cannot be taken on without risking a duplicate; `Retry-After` says when one of
    /// them counts as abandoned.
    /// - Parameter retryAfterSeconds: Seconds until a key can be taken on.
    static func idempotencyStoreFull(retryAfterSeconds: Int) -> APIError {
        APIError(
            status: .serviceUnavailable,
            code: "idempotency_store_full",
            message: "too many requests with an Idempotency-Key are in flight; try again in \(retryAfterSeconds) seconds",
            headers: [.retryAfter: String(retryAfterSeconds)]
        )
    }

    /// 422 `idempotency_key_reused`: the key was used before for a different method, path or body.
    static func idempotencyKeyReused() -> APIError {
        APIError(
            status: .unprocessableContent,
            code: "idempotency_key_reused",
            message: "this Idempotency-Key was used for a different request"
        )
    }
}
