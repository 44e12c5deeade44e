import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import CourierURLSession
import Foundation

/// What `courier get|post|put|patch|delete URL` takes: a curl for APIs, through Courier's whole
/// chain (retries, redirects with credentials stripped, the RFC 9111 cache, decoding).
struct HTTPCallOptions: ParsableArguments {
    @Argument(help: "The URL (http or https).")
    var url: String

    @Option(name: [.customShort("H"), .customLong("header")], help: "A request header, 'Name: value' (repeatable).")
    var headers: [String] = []

    @Option(help: "A JSON body (sent with Content-Type: application/json).")
    var json: String?

    @Option(name: [.customShort("d"), .customLong("data")], help: "A body: the text itself, or @FILE for a file's bytes.")
    var data: String?

    @Option(help: "A bearer token for this URL's origin (never sent to another one).")
    var bearer: String?

    @Option(help: "A folder for a disk cache kept across runs (RFC 9111; private responses and those sent with a credential are not stored).")
    var cache: String?

    @Option(help: "The engine: ahc (AsyncHTTPClient) or urlsession.")
    var transport: HTTPCallTransport = .ahc

    @Option(help: "Seconds one attempt may take.")
    var timeout: Double = 30

    @Option(name: [.customShort("o"), .customLong("output")], help: "Write the body to this file instead of standard output.")
    var output: String?

    @Flag(name: [.customShort("v"), .customLong("verbose")], help: "Show the chain's work on standard error as it happens: the cache's answer and why, each attempt with its headers (redacted), status and time, each retry with its wait and what set it, redirects and what they left behind, a renewed credential.")
    var verbose = false

    @Flag(help: "Trace the call (a span for the call, a child per attempt, the chain's decisions as events) and print the spans on standard error when it ends.")
    var trace = false
}

/// The engines `courier get` and the API commands can use.
enum HTTPCallTransport: String, ExpressibleByArgument, CaseIterable, Sendable {
    case ahc, urlsession

    /// A transport of this kind, with the way to release it.
    func make() -> ManagedTransport {
        switch self {
        case .ahc:
            let transport = AsyncHTTPClientTransport()
            return ManagedTransport(transport: transport) { try? await transport.shutdown() }
        case .urlsession:
            let transport = URLSessionTransport()
            return ManagedTransport(transport: transport) { transport.session.finishTasksAndInvalidate() }
        }
    }
}

/// A transport a command made, and how to shut it down.
struct ManagedTransport: Sendable {
    let transport: any Transport
    let shutdown: @Sendable () async -> Void
}
