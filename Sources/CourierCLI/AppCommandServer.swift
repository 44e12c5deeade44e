import Courier
import Foundation
import ReferenceServer

/// Where an app command (`courier clarity`, `courier intervals`) sends its calls: `--server`,
/// or a reference server started in this process for the command. Either way the transport,
/// and the embedded server, are shut down when the command's work ends, whether it succeeds.
enum AppCommandServer {
    /// Runs `body` with the server's URL and a transport.
    /// - Parameters:
    ///   - remote: `--server`'s URL, or `nil` to start the embedded reference server.
    ///   - transport: The engine to make.
    ///   - note: What to tell the user (on standard error) when the embedded server is used, given its URL.
    ///   - body: The command's work: the base URL, the transport, and whether the server is the embedded one.
    static func run<T>(
        remote: URL?,
        transport: HTTPCallTransport,
        note: (URL) -> String,
        _ body: (URL, any Transport, Bool) async throws -> T
    ) async throws -> T {
        let managed = transport.make()
        var embedded: ReferenceServer?
        do {
            let url: URL
            if let remote {
                url = remote
            } else {
                let reference = ReferenceServer(configuration: ReferenceServerConfiguration.embeddedWithoutDebugRoutes)
                embedded = reference
                url = try await reference.start()
                Console.note(note(url))
            }
            let result = try await body(url, managed.transport, embedded != nil)
            await managed.shutdown()
            await embedded?.stop()
            return result
        } catch {
            await managed.shutdown()
            await embedded?.stop()
            throw error
        }
    }
}
