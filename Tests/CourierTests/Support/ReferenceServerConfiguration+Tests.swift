import ReferenceServer

extension ReferenceServerConfiguration {
    /// The PBKDF2 rounds of test servers: enough to exercise the hashing, cheap enough that
    /// creating a server (which hashes the demo password) and every sign-in stay fast.
    static let testPasswordHashRounds = 1_000

    /// A configuration for a test server: the defaults (port 0: the system picks a free port
    /// as the server binds), with ``preparedForTests()`` applied. Tests never name a port: one
    /// found free a moment earlier may be taken by then. For "unreachable, then reachable",
    /// see ``TCPGate``.
    static func forTests() -> ReferenceServerConfiguration {
        ReferenceServerConfiguration(port: 0).preparedForTests()
    }

    /// This configuration with the `/debug` routes on (client tests drive them) and cheap
    /// password hashing (``testPasswordHashRounds``).
    ///
    /// `withRunningServer`, `withReferenceServer` and `ServerUnderTest.run` apply it to every
    /// server they start; a test about those two settings starts its server some other way
    /// (`ServerUnderTest.runAsConfigured`).
    func preparedForTests() -> ReferenceServerConfiguration {
        var configuration = self
        configuration.enablesDebugRoutes = true
        configuration.passwordHashRounds = Self.testPasswordHashRounds
        return configuration
    }
}
