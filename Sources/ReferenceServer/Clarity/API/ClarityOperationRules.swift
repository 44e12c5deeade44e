import Hummingbird

/// What the reference server asks of a request to each CLARITY operation before its handler
/// runs, by operation id (the document's `operationId`): whether it needs an access token, how
/// large its body may be, and whether that body may come gzip-compressed.
///
/// Access follows the service's code rather than the document's `security` markings, which its
/// OpenAPI hook put on every path outside `/api/v1/auth/` whatever the route enforced: the
/// routers of health data, HealthKit, PAT, insights and metrics, and `GET`/`PUT /api/v1/auth/me`
/// and logout, refuse a request without a valid token (401); the service's info, health and
/// test routes and the chat statistics answer anyone.
struct ClarityOperationRules: Sendable, Hashable {
    /// Whether an operation takes an access token.
    enum Access: Sendable, Hashable {
        /// No token is read.
        case open
        /// A valid token is read when one is sent; without one the handler runs unsigned.
        case optional
        /// A valid token is required: 401 otherwise.
        case signed
    }

    /// Whether the operation takes an access token.
    var access: Access
    /// The largest body accepted, decoded.
    var maximumBodyBytes: Int = Request.maximumJSONBodySize
    /// Whether the body may come gzip-compressed.
    var acceptsGzip = false

    /// How many operations CLARITY's document has.
    static let operationCount = 37

    /// The rules of one operation; an id this table does not know is signed, the safe side.
    static func of(_ operationID: String) -> ClarityOperationRules {
        table[operationID] ?? ClarityOperationRules(access: .signed)
    }

    /// The operations that do not simply require a token, and the ones with bodies out of the ordinary.
    static let table: [String: ClarityOperationRules] = {
        var table: [String: ClarityOperationRules] = [:]
        for id in [
            "register_api_v1_auth_register_post", "login_api_v1_auth_login_post", "refresh_token_api_v1_auth_refresh_post",
            "confirm_email_api_v1_auth_confirm_email_post", "resend_confirmation_api_v1_auth_resend_confirmation_post",
            "forgot_password_api_v1_auth_forgot_password_post", "reset_password_api_v1_auth_reset_password_post",
            "auth_health_api_v1_auth_health_get", "root__get", "health_check_health_get", "api_info_api_v1__get",
            "get_chat_stats_api_v1_ws_chat_stats_get", "get_room_users_api_v1_ws_chat_users__room_id__get",
            "simple_ping_api_v1_test_ping_get", "capture_raw_request_api_v1_debug_debug_capture_raw_request_post",
            "echo_login_request_api_v1_debug_debug_echo_login_post",
        ] {
            table[id] = ClarityOperationRules(access: .open)
        }
        table["check_middleware_api_v1_test_check_middleware_get"] = ClarityOperationRules(access: .optional)
        table["upload_health_data_api_v1_health_data__post"] = ClarityOperationRules(access: .signed, acceptsGzip: true)
        table["upload_healthkit_data_api_v1_healthkit__post"] = ClarityOperationRules(
            access: .signed, maximumBodyBytes: ClarityService.maximumHealthKitUploadBytes, acceptsGzip: true
        )
        return table
    }()
}
