/// Which redirects the client follows, and how.
///
/// Courier follows redirects itself (its transports are told not to), so these rules hold
/// whatever the engine:
/// - 301, 302, 303, 307 and 308 with a `Location` are followed, up to ``maxRedirects``;
/// - 303, and 301/302 after a POST, become a GET without a body; 307 and 308 keep the
///   method and body, and are not followed when the body is single-use;
/// - when the redirect leaves the origin (scheme, host or port change), `Authorization`,
///   `Proxy-Authorization` and `Cookie` are removed: credentials never cross hosts; and a
///   hop that would carry a body there (a 307 or 308, or a 301 or 302 after a PUT) is not
///   followed: a body never crosses hosts either;
/// - a redirect from https to http is not followed unless ``allowsInsecureDowngrade`` is set.
///
/// A redirect that is not followed reaches the caller as the 3xx response, which a client
/// that accepts only 2xx throws as ``CourierError/Code/redirectNotFollowed`` with the target
/// in ``CourierError/redirectLocation``.
public struct RedirectPolicy: Sendable, Hashable {
    /// The most redirects followed for one call; 0 follows none.
    public var maxRedirects: Int
    /// Whether an https request may be redirected to plain http.
    public var allowsInsecureDowngrade: Bool

    /// Makes a policy.
    /// - Parameters:
    ///   - maxRedirects: The most redirects followed (5 by default).
    ///   - allowsInsecureDowngrade: Whether https may redirect to http (no by default).
    public init(maxRedirects: Int = 5, allowsInsecureDowngrade: Bool = false) {
        self.maxRedirects = maxRedirects
        self.allowsInsecureDowngrade = allowsInsecureDowngrade
    }

    /// Follow up to five redirects, never downgrading to http.
    public static let `default` = RedirectPolicy()
    /// Follow no redirects: 3xx responses reach the caller.
    public static let none = RedirectPolicy(maxRedirects: 0)
}
