import Courier
import CourierAsyncHTTPClient
import Foundation
import ReferenceServer

/// The HTTP/2 part of the demo: a second reference server on HTTPS offering HTTP/2 (a CA made
/// for the run, trusted by the client alone), a few hundred calls through it while the server
/// drains its connections with a `GOAWAY` every 100 requests, as busy services do, and the
/// negotiated protocol named.
struct DemoHTTP2 {
    let report: DemoReport

    func run() async throws {
        print("\n── HTTPS and HTTP/2: one connection for many calls, a server drain survived")
        let authority = try LocalCertificateAuthority(name: "Courier demo")
        var configuration = ReferenceServerConfiguration.embedded
        configuration.enablesDebugRoutes = true
        configuration.tlsConfiguration = try authority.serverTLSConfiguration()
        configuration.http2 = HTTP2Options(goAwayAfterRequests: 100)
        let server = ReferenceServer(configuration: configuration)
        let url = try await server.start()
        let transport = AsyncHTTPClientTransport(configuration: .init(tls: TLSPolicy(trustRoots: .certificates([try authority.caDER()]))))
        do {
            try await calls(url: url, transport: transport, server: server)
        } catch {
            try? await transport.shutdown()
            await server.stop()
            throw error
        }
        try await transport.shutdown()
        await server.stop()
    }

    private func calls(url: URL, transport: AsyncHTTPClientTransport, server: ReferenceServer) async throws {
        let client = APIClient(baseURL: url, transport: transport)
        let first = try await client.send(Request<Data>(path: "/debug/ping"))
        let version = first.metrics.protocolVersion.map(\.rawValue) ?? "unknown"
        print("  \(url.absoluteString) negotiated \(version) by ALPN (the client trusts a CA made for this run)")
        let total = 400
        let (answered, attempts) = try await withThrowingTaskGroup(of: (Bool, Int).self) { group in
            var started = 0
            var answered = 0
            var attempts = 0
            func call(_ index: Int) async throws -> (Bool, Int) {
                let response = try await client.send(Request<Data>(path: "/debug/query", query: [URLQueryItem(name: "call", value: "\(index)")]))
                return (response.status == .ok && response.metrics.protocolVersion == .http2, response.metrics.attempts)
            }
            for _ in 0..<32 {
                let index = started
                started += 1
                group.addTask { try await call(index) }
            }
            while let (ok, tries) = try await group.next() {
                if ok { answered += 1 }
                attempts += tries
                if started < total {
                    let index = started
                    started += 1
                    group.addTask { try await call(index) }
                }
            }
            return (answered, attempts)
        }
        let drains = server.goAwaysSent
        print("  \(total) GETs at 32 in flight over HTTP/2: \(answered) answered; the server drained its connection \(drains) times (a GOAWAY every 100 requests),")
        print("  and the \(attempts - total) streams it dropped unprocessed went again at once on the next connection: no call failed")
        report.set("http2", "negotiated_http2", first.metrics.protocolVersion == .http2 ? 1 : 0)
        report.set("http2", "calls", total)
        report.set("http2", "answered", answered)
        report.set("http2", "goaways", drains)
        report.set("http2", "resent_unprocessed", attempts - total)
    }
}
