import ArgumentParser
import ReferenceServer

/// `courier serve`: runs the reference server on loopback until stopped.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the reference server on 127.0.0.1 until stopped (Ctrl-C)."
    )

    @Option(help: "The port; 0 picks a free one.")
    var port: Int = 8080

    @Option(help: "The seed for synthetic opinions.")
    var seed: UInt64 = 42

    func run() async throws {
        let server = ReferenceServer(configuration: ReferenceServerConfiguration(port: port, seed: seed))
        let url = try await server.start()
        Console.line("listening on \(url.absoluteString)")
        let defaults = ReferenceServerConfiguration()
        Console.line("demo account: \(defaults.demoEmail) / \(defaults.demoPassword)")
        await SignalWaiter.waitForInterrupt()
        await server.stop()
    }
}
