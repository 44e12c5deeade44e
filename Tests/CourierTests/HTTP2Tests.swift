import Courier
import CourierAsyncHTTPClient
import CourierTesting
import CourierWebSocket
import Foundation
import RadarAPI
import RadarCore
import ReferenceServer
import Testing

/// Courier over HTTP/2 against the reference server on HTTPS with `h2` offered by ALPN, as the
/// services the apps call speak it: the version is negotiated (and checked, not assumed), many
/// calls share a connection, a server that drains connections with `GOAWAY` costs no call, and
/// a retry knows what the server saw of a request.
@Suite("HTTP/2 over TLS against the reference server")
struct HTTP2Tests {
    /// A reference server on HTTPS offering HTTP/2, and a client that trusts its CA.
    private func withHTTP2Server(
        options: HTTP2Options = HTTP2Options(),
        transport configure: (inout AsyncHTTPClientTransport.Configuration) -> Void = { _ in },
        _ body: (APIClient, ReferenceServer, AsyncHTTPClientTransport) async throws -> Void
    ) async throws {
        let authority = try LocalCertificateAuthority(name: "Courier HTTP/2 tests")
        var configuration = ReferenceServerConfiguration()
        configuration.tlsConfiguration = try authority.serverTLSConfiguration()
        configuration.http2 = options
        try await withRunningServer(configuration) { server, url in
            #expect(url.scheme == "https")
            var transportConfiguration = AsyncHTTPClientTransport.Configuration(
                connectTimeout: .seconds(10 * testPatience), tls: TLSPolicy(trustRoots: .certificates([try authority.caDER()]))
            )
            configure(&transportConfiguration)
            try await withTransport(AsyncHTTPClientTransport(configuration: transportConfiguration)) { transport in
                var client = ClientConfiguration(baseURL: url)
                client.middleware.append(BearerTokenMiddleware(token: try await demoToken(server)))
                try await body(APIClient(configuration: client, transport: transport), server, transport)
            }
        }
    }

    @Test func callsNegotiateHTTP2AndMoreThanTheServersStreamLimitRunAtOnce() async throws {
        try await withHTTP2Server { client, server, _ in
            // 150 calls held open at once, past the server's 100 concurrent streams.
            let versions = try await withThrowingTaskGroup(of: ProtocolVersion?.self) { group in
                // Distinct URLs, so that no call joins another one in flight (dedup).
                for index in 0..<150 {
                    group.addTask { try await client.send(Request<Data>(path: "/debug/slow?ms=200&call=\(index)")).metrics.protocolVersion }
                }
                return try await group.reduce(into: [ProtocolVersion?]()) { $0.append($1) }
            }
            #expect(versions.count == 150)
            #expect(versions.allSatisfy { $0 == .http2 }, "\(Set(versions.map { $0.map(\.rawValue) ?? "none" }))")
            #expect(await server.requestCount(path: "/debug/slow") == 150)
        }
    }

    @Test func http1IsSpokenOnlyWhenAskedFor() async throws {
        try await withHTTP2Server(transport: { $0.httpVersion = .http1Only }) { client, _, _ in
            let response = try await client.send(Request<Data>(path: "/debug/ping"))
            #expect(response.metrics.protocolVersion == .http1_1)
        }
    }

    @Test func aServerDrainingConnectionsWithGoAwayUnderLoadLeavesEveryGETAnswered() async throws {
        // As a busy service drains them (nginx's keepalive_requests 100), at 32 in flight.
        try await withHTTP2Server(options: HTTP2Options(goAwayAfterRequests: 100)) { client, server, _ in
            let requests = 1_000
            let answered = try await withThrowingTaskGroup(of: Int.self) { group in
                var started = 0
                var answered = 0
                // 32 in flight, as the bench measures it.
                // Distinct URLs, so that no call joins another one in flight (dedup).
                func call(_ index: Int) async throws -> Int {
                    try await client.send(Request<Data>(path: "/debug/query?call=\(index)")).status.code
                }
                for _ in 0..<32 {
                    let index = started
                    started += 1
                    group.addTask { try await call(index) }
                }
                while let status = try await group.next() {
                    if status == 200 { answered += 1 }
                    if started < requests {
                        let index = started
                        started += 1
                        group.addTask { try await call(index) }
                    }
                }
                return answered
            }
            #expect(answered == requests)
            #expect(await server.requestCount(path: "/debug/query") >= requests)
            #expect(server.goAwaysSent >= requests / 100 - 1, "the server drained a connection every 100 requests: \(server.goAwaysSent)")
        }
    }

    @Test func postsWithoutAKeyAcrossGoAwaysAreAppliedAtMostOnceAndNeverProcessedIsNeverALie() async throws {
        /// How one POST ended.
        enum Outcome {
            case created(attempts: Int)
            case failed(neverProcessed: Bool)
        }
        try await withHTTP2Server(options: HTTP2Options(goAwayAfterRequests: 50)) { client, server, _ in
            let before = try await client.value(for: RadarEndpoints.list(limit: 100)).count
            let total = 150
            let outcomes = await withTaskGroup(of: (String, Outcome).self) { group in
                for index in 0..<total {
                    group.addTask {
                        let topic = "Across a drain \(index)"
                        do {
                            let response = try await client.send(RadarEndpoints.create(topic: topic))
                            return (topic, .created(attempts: response.metrics.attempts))
                        } catch {
                            return (topic, .failed(neverProcessed: (error as? CourierError)?.neverProcessed ?? false))
                        }
                    }
                }
                return await group.reduce(into: [String: Outcome]()) { $0[$1.0] = $1.1 }
            }
            let stored = try await client.value(for: RadarEndpoints.list(limit: 100, offset: 0))
                + (try await client.value(for: RadarEndpoints.list(limit: 100, offset: 100)))
            let topics = stored.map(\.topic).filter { $0.hasPrefix("Across a drain ") }
            let applied = Set(topics)
            #expect(server.goAwaysSent >= 1, "the server drained at least the first connection")
            // Nothing was applied twice.
            #expect(topics.count == applied.count, "a write was applied twice")
            #expect(stored.count - before == topics.count)
            // Every success was applied, and some needed a second attempt: a stream above a GOAWAY's
            // last (which the client drops), or one the server refused, or a request AsyncHTTPClient
            // gave a closing connection, was never processed, so it went again without a key.
            let created = outcomes.filter { if case .created = $0.value { true } else { false } }
            #expect(Set(created.keys).isSubset(of: applied))
            let resent = outcomes.values.filter { if case .created(let attempts) = $0, attempts > 1 { true } else { false } }
            #expect(!resent.isEmpty, "no POST went again: the drain did not reach one in flight")
            // A failure that says the server never processed the request is true: it was not
            // applied. (Failures that say it may have been are the reference server's own: NIOHTTP2
            // takes the DATA of a stream it refused after its GOAWAY for a connection error and
            // closes the connection under streams it had promised to finish. Retries that spent the
            // client's budget end as never processed.)
            let unprocessed = outcomes.filter { if case .failed(neverProcessed: true) = $0.value { true } else { false } }
            #expect(Set(unprocessed.keys).isDisjoint(with: applied), "a failure said never processed, yet the server applied it")
        }
    }

    @Test func aPostWithoutAKeyIsRetriedAfterARefusedStreamAndAppliedOnce() async throws {
        try await withHTTP2Server { client, server, _ in
            let before = try await client.value(for: RadarEndpoints.list(limit: 100)).count
            server.faults.inject(.refuseStream, method: "POST", path: "/api/radars")
            let created = try await client.send(RadarEndpoints.create(topic: "Refused once, applied once"))
            #expect(created.status == .created)
            #expect(created.metrics.attempts == 2, "the refused stream was sent again")
            #expect(created.metrics.protocolVersion == .http2)
            let after = try await client.value(for: RadarEndpoints.list(limit: 100))
            #expect(after.count == before + 1)
            #expect(after.filter { $0.topic == "Refused once, applied once" }.count == 1)
        }
    }

    @Test func aPostWithoutAKeyIsNotRetriedAfterAResetThatFollowedPartOfItsAnswer() async throws {
        try await withHTTP2Server { client, server, _ in
            let before = try await client.value(for: RadarEndpoints.list(limit: 100)).count
            server.bodyFaults.dropConnection(afterBodyBytes: 8, path: "/api/radars")
            let error = await courierError { _ = try await client.send(RadarEndpoints.create(topic: "Reset after part of its answer")) }
            #expect(error?.code == .connectionLost)
            #expect(error?.neverProcessed == false)
            #expect(error?.attempts == 1, "the server may have applied it: not sent again")
            let after = try await client.value(for: RadarEndpoints.list(limit: 100))
            #expect(after.count == before + 1, "applied once, by the one attempt")
        }
    }

    @Test func pinsAreCheckedOnHTTP2Connections() async throws {
        let certificates = try TestCertificates.make()
        var configuration = ReferenceServerConfiguration()
        configuration.tlsConfiguration = try certificates.serverTLSConfiguration()
        configuration.http2 = HTTP2Options()
        try await withRunningServer(configuration) { server, url in
            let roots = TLSPolicy.TrustRoots.certificates([try certificates.caDER()])
            let pinned = AsyncHTTPClientTransport(configuration: .init(tls: TLSPolicy(trustRoots: roots, pinnedPublicKeys: [certificates.serverKeyPin])))
            let version = try await withTransport(pinned) { pinned in
                try await APIClient(baseURL: url, transport: pinned).send(Request<Data>(path: "/debug/ping")).metrics.protocolVersion
            }
            #expect(version == .http2)
            let mispinned = AsyncHTTPClientTransport(configuration: .init(tls: TLSPolicy(trustRoots: roots, pinnedPublicKeys: [TestCertificates.unrelatedKeyPin])))
            let error = try await withTransport(mispinned) { mispinned in
                await courierError { _ = try await APIClient(baseURL: url, transport: mispinned).send(Request<Data>(path: "/debug/ping")) }
            }
            #expect(error?.code == .tlsFailure)
            #expect(await server.requestCount(path: "/debug/ping") == 1, "only the pinned connection's request arrived")
        }
    }

    @Test func aLargeDownloadStreamsOverHTTP2() async throws {
        try await withHTTP2Server { client, _, _ in
            let bytes = 3 << 20
            let download = try await client.send(Request<Data>(path: "/debug/bytes?count=\(bytes)"))
            #expect(download.value.count == bytes)
            #expect(download.metrics.protocolVersion == .http2)
        }
    }

    @Test func serverSentEventsStreamOverHTTP2AndAWebSocketOpensOverHTTP1OnTheSameServer() async throws {
        let authority = try LocalCertificateAuthority(name: "Courier HTTP/2 real time")
        var configuration = ReferenceServerConfiguration()
        configuration.tlsConfiguration = try authority.serverTLSConfiguration()
        configuration.http2 = HTTP2Options()
        try await withRunningServer(configuration) { server, url in
            let token = try await demoToken(server)
            let tls = TLSPolicy(trustRoots: .certificates([try authority.caDER()]))
            let transport = AsyncHTTPClientTransport(configuration: .init(tls: tls))
            do {
                var clientConfiguration = ClientConfiguration(baseURL: url)
                clientConfiguration.middleware.append(BearerTokenMiddleware(token: token))
                let client = APIClient(configuration: clientConfiguration, transport: transport)
                // The event stream is a streamed response: over HTTP/2, as every call on this transport.
                let probe = try await client.send(Request<Data>(path: "/debug/ping"))
                #expect(probe.metrics.protocolVersion == .http2)
                let source = ServerSentEventSource(client: client, path: RadarLiveEndpoints.eventStreamPath(radarId: "r_1"))
                var events = source.events().makeAsyncIterator()
                let snapshot = try await events.next()
                #expect(snapshot?.event == "refresh", "the first event of the stream is the radar's snapshot")

                // A WebSocket needs HTTP/1.1: the handshake negotiates it on the same port.
                let session = AuthSession(authenticator: CountingAuthenticator())
                try await session.signIn(Credential(accessToken: token))
                let socketURL = URL(string: url.absoluteString.replacingOccurrences(of: "https://", with: "wss://") + "/api/ws/radar/r_1")!
                let connection = WebSocketConnection(
                    configuration: WebSocketConfiguration(url: socketURL, heartbeat: nil),
                    engine: WSClientEngine(handshakeStatusProbe: transport), auth: session
                )
                connection.connect()
                let message = await nextMessage(connection)
                await connection.close()
                guard case .text(let first)? = message else {
                    Issue.record("no snapshot over wss on the HTTP/2 server; state \(connection.state)")
                    try await transport.shutdown()
                    return
                }
                #expect(first.contains(#""type":"refresh""#))
            } catch {
                try? await transport.shutdown()
                throw error
            }
            try await transport.shutdown()
        }
    }
}
