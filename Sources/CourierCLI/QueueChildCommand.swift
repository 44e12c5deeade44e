import ArgumentParser
import ClarityAPI
import Courier
import CourierAsyncHTTPClient
import CourierSQLite
import Foundation
import RadarAPI

/// `courier queue-child`: a process that queues radar writes while the server is down, or
/// replays them, for the crash-safety test (which kills it with SIGKILL mid-replay). Hidden.
struct QueueChildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue-child",
        abstract: "Queue radar writes while the server is down, or replay them (crash-safety test helper).",
        shouldDisplay: false
    )

    enum Mode: String, ExpressibleByArgument { case enqueue, replay }

    @Argument(help: "enqueue or replay")
    var mode: Mode
    @Option(help: "The server's base URL.")
    var server: String
    @Option(help: "The queue's SQLite file.")
    var database: String
    @Option(help: "The credential file (FileCredentialStore format).")
    var credentials: String
    @Option(help: "How many writes to queue.")
    var count = 500
    @Option(help: "The topic prefix of the queued radars.")
    var prefix = "queued"
    @Option(help: "How long replay may take, in seconds.")
    var timeout = 120

    func run() async throws {
        guard let url = URL(string: server) else { throw ValidationError("not a URL: \(server)") }
        let transport = AsyncHTTPClientTransport()
        let queue = OfflineQueue(storage: try SQLiteQueueStorage(url: URL(fileURLWithPath: database)), maxAttempts: 50, backoff: Backoff(.constant(.milliseconds(200)), jitter: .none))
        let clarity = ClarityClient(baseURL: url, transport: transport, store: FileCredentialStore(url: URL(fileURLWithPath: credentials))) { configuration in
            configuration.offlineQueue = queue
            configuration.retryPolicy = .none
        }
        let radar = clarity.client.rebased(to: url)
        do {
            switch mode {
            case .enqueue:
                var queued = 0
                for index in 0..<count {
                    if case .queued = try await radar.sendOrQueue(RadarEndpoints.create(topic: "\(prefix)-\(index)")) { queued += 1 }
                }
                print("queued \(queued)")
            case .replay:
                let started = ContinuousClock.now
                await queue.replay()
                while try await !queue.pending().isEmpty {
                    guard ContinuousClock.now - started < .seconds(timeout) else { throw ValidationError("replay did not finish in \(timeout) s") }
                    try await Task.sleep(for: .milliseconds(50))
                    await queue.replay()
                }
                print("replayed; dead letters: \(try await queue.deadLetters().count)")
            }
            try await transport.shutdown()
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }
}
