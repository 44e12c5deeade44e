import ReferenceServer

extension ReferenceServerConfiguration {
    /// The password hash cost of the embedded server: far below the production default.
    static let embeddedPasswordHashRounds = 1_000

    /// The configuration of the reference server that `courier demo` and `courier bench` start
    /// in their own process, on a free loopback port.
    ///
    /// - The `/debug` routes are on: the demo and the benchmarks drive them (slow answers,
    ///   pings, blobs, upload sinks, the WebSocket echo).
    /// - Passwords are hashed with ``embeddedPasswordHashRounds`` PBKDF2 rounds instead of the
    ///   600,000 of ``passwordHashRounds``' default: this server lives only as long as the
    ///   command, listens on loopback only, and holds only the demo account and the throwaway
    ///   accounts the story registers, so a slow hash would protect nothing and only slow
    ///   every sign-in the story and the benchmarks make.
    static var embedded: ReferenceServerConfiguration {
        var configuration = ReferenceServerConfiguration()
        configuration.enablesDebugRoutes = true
        configuration.passwordHashRounds = embeddedPasswordHashRounds
        return configuration
    }
}

extension ReferenceServerConfiguration {
    /// The embedded server of the app commands (`courier clarity`, `courier intervals`):
    /// ``embedded`` without the `/debug` routes, which they do not use.
    static var embeddedWithoutDebugRoutes: ReferenceServerConfiguration {
        var configuration = ReferenceServerConfiguration.embedded
        configuration.enablesDebugRoutes = false
        return configuration
    }
}
