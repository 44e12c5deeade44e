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

    /// 422 `idempotency_key_reused`: the key was used before for a different method, path or body.
    static func idempotencyKeyReused() -> APIError {
        APIError(
            status: .unprocessableContent,
            code: "idempotency_key_reused",
            message: "this Idempotency-Key was used for a different request"
        )
    }
}
