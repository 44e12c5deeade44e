import ArgumentParser
import ReferenceServer

/// `courier serve`: runs the reference server on loopback until stopped.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the reference server on 127.0.0.1 until stopped (Ctrl-C).",
        discussion: """
        The diagnostic and control routes under /debug (fault scripting, token controls, \
        real-time drops, blobs, upload sinks, /debug/ws/echo) need no token, so they are off \
        unless --debug-routes is given; without it, /debug/… answers 404.
        """
    )

    @Option(help: "The port; 0 picks a free one.")
    var port: Int = 8080

    @Option(help: "The seed for synthetic opinions.")
    var seed: UInt64 = 42

    @Flag(help: "Mount the unauthenticated /debug routes (faults, token controls, real-time drops, blobs); for tests and demos only.")
    var debugRoutes = false

    func run() async throws {
        var configuration = ReferenceServerConfiguration(port: port, seed: seed)
        configuration.enablesDebugRoutes = debugRoutes
        let server = ReferenceServer(configuration: configuration)
        let url = try await server.start()
        Console.line("listening on \(url.absoluteString)")
        let defaults = ReferenceServerConfiguration()
        Console.line("demo account: \(defaults.demoEmail) / \(defaults.demoPassword)")
        if debugRoutes {
            Console.line("debug routes: on, under \(url.absoluteString)/debug (no authentication)")
        }
        await SignalWaiter.waitForInterrupt()
        await server.stop()
    }
}
