import ArgumentParser
import ClarityAPI
import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import Logging
import RadarAPI
import ReferenceServer

/// `courier demo`: starts the embedded reference server and runs the story against it.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Start the embedded reference server on a free loopback port and show Courier at work."
    )

    @Option(help: "Also write a JSON summary with one key per capability shown.")
    var json: String?

    func run() async throws {
        let server = ReferenceServer(configuration: .embedded)
        let url = try await server.start()
        let transport = AsyncHTTPClientTransport(configuration: .init(connectionsPerHost: 16))
        let report = DemoReport()
        do {
            print("▶ reference server listening on \(url.absoluteString)")
            let story = DemoStory(server: server, baseURL: url, transport: transport, report: report)
            try await story.run()
            try await transport.shutdown()
            await server.stop()
        } catch {
            try? await transport.shutdown()
            await server.stop()
            throw error
        }
        if let json {
            try report.write(to: URL(fileURLWithPath: json))
            print("\nsummary written to \(json)")
        }
    }
}
