import Foundation
import RadarCore
@testable import ReferenceServer
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The reference server's fault injection and request counts, scripted in-process and over HTTP.
@Suite("Reference server: fault injection")
struct ReferenceServerFaultTests {
    @Test("a 503 injected twice answers the next two requests, then the route answers as usual")
    func statusFaultAnswersTwiceThenTheRouteRuns() async throws {
        try await ServerUnderTest.run { server in
            let token = try await server.demoAccessToken()
            server.server.faults.inject(.status(503), count: 2, path: "/api/radars")
            #expect(server.server.faults.remaining(path: "/api/radars") == 2)

            let first = try await server.send("GET", "/api/radars", token: token)
            let second = try await server.send("GET", "/api/radars?limit=1", token: token)
            let third = try await server.send("GET", "/api/radars", token: token)

            #expect([first.status, second.status, third.status] == [Int]([503, 503, 200]))
            #expect(try first.errorBody() == APIErrorBody(message: "injected 503", code: "injected_fault"))
            #expect(server.server.faults.remaining(path: "/api/radars") == 0)
            #expect(await server.server.requestCount(path: "/api/radars") == 3)
            #expect(await server.server.requestCount(method: "GET", path: "/api/radars") == 3)
            #expect(await server.server.requestCount(method: "POST", path: "/api/radars") == 0)
        }
    }

    @Test("faults come before authentication: a request without a token still gets the injected status")
    func faultsComeBeforeAuthentication() async throws {
        try await ServerUnderTest.run { server in
            server.server.faults.inject(.status(500), path: "/api/v1/auth/me")
            let faulted = try await server.send("GET", "/api/v1/auth/me")
            let unauthenticated = try await server.send("GET", "/api/v1/auth/me")
            #expect(faulted.status == 500)
            #expect(unauthenticated.status == 401)
        }
    }

    @Test("rateLimited answers 429 with Retry-After exactly as given")
    func rateLimitedCarriesRetryAfter() async throws {
        try await ServerUnderTest.run { server in
            let httpDate = "Wed, 21 Oct 2015 07:28:00 GMT"
            server.server.faults.inject(.rateLimited(retryAfter: "2"), path: "/debug/ping")
            server.server.faults.inject(.rateLimited(retryAfter: httpDate), path: "/debug/ping")

            let seconds = try await server.send("GET", "/debug/ping")
            let date = try await server.send("GET", "/debug/ping")
            #expect(seconds.status == 429 && date.status == 429)
            #expect(seconds.header("Retry-After") == "2")
            #expect(date.header("Retry-After") == httpDate)
            #expect(try seconds.errorBody().code == "injected_fault")
        }
    }

    @Test("a delay holds the request for that long, then the route answers")
    func delayDelaysTheAnswer() async throws {
        try await ServerUnderTest.run { server in
            server.server.faults.inject(.delay(.milliseconds(300)), path: "/debug/ping")
            let clock = ContinuousClock()
            let started = clock.now
            let reply = try await server.send("GET", "/debug/ping")
            #expect(reply.status == 200)
            #expect(clock.now - started >= .milliseconds(300))
        }
    }

    @Test("dropConnection fails the client's request with a connection error and no response")
    func dropConnectionGivesTheClientNoResponse() async throws {
        try await ServerUnderTest.run { server in
            server.server.faults.inject(.dropConnection, path: "/debug/ping")
            await #expect(throws: URLError.self) {
                _ = try await server.send("GET", "/debug/ping")
            }
            let next = try await server.send("GET", "/debug/ping")
            #expect(next.status == 200)
            #expect(await server.server.requestCount(path: "/debug/ping") == 2)
        }
    }

    #if canImport(Glibc)
    @Test("dropConnection closes the socket before a single byte of response")
    func dropConnectionSendsZeroBytes() async throws {
        try await ServerUnderTest.run { server in
            server.server.faults.inject(.dropConnection, path: "/debug/ping")
            let port = try #require(server.baseURL.port)
            let received = try await RawHTTPExchange.send("GET /debug/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", toPort: port)
            #expect(received.closedByPeer)
            #expect(received.bytes.isEmpty)
        }
    }
    #endif

    @Test("injections on one path are taken in order, each by the first request whose method matches")
    func injectionsAreTakenInOrderByMethod() async throws {
        try await ServerUnderTest.run { server in
            let token = try await server.demoAccessToken()
            server.server.faults.inject(.status(500), method: "post", path: "/api/radars")
            server.server.faults.inject(.status(502), path: "/api/radars")
            #expect(server.server.faults.remaining(path: "/api/radars") == 2)

            #expect(try await server.send("GET", "/api/radars", token: token).status == 502)
            #expect(try await server.send("POST", "/api/radars", json: CreateRadarRequest(topic: "Ordered faults"), token: token).status == 500)
            #expect(try await server.send("POST", "/api/radars", json: CreateRadarRequest(topic: "Ordered faults"), token: token).status == 201)

            server.server.faults.inject(.status(503), count: 5, path: "/api/radars")
            server.server.faults.clear()
            #expect(server.server.faults.remaining(path: "/api/radars") == 0)
            #expect(try await server.send("GET", "/api/radars", token: token).status == 200)
        }
    }

    @Test("every refresh request is counted, faulted ones included, until the counters are reset")
    func refreshRequestsAreCountedIncludingFaultedOnes() async throws {
        try await ServerUnderTest.run { server in
            let tokens = try await server.server.issueTokens(email: "demo@courier.dev")
            server.server.faults.inject(.status(503), path: "/api/v1/auth/refresh")
            let body = RefreshBody(refreshToken: tokens.refreshToken)
            #expect(try await server.send("POST", "/api/v1/auth/refresh", json: body).status == 503)
            #expect(try await server.send("POST", "/api/v1/auth/refresh", json: body).status == 200)
            #expect(await server.server.requestCount(method: "POST", path: "/api/v1/auth/refresh") == 2)

            await server.server.resetCounters()
            #expect(await server.server.requestCount(method: "POST", path: "/api/v1/auth/refresh") == 0)
        }
    }

    /// The answer to a scripted body cut.
    private struct ScriptedCut: Decodable, Equatable {
        var path: String
        var remaining: Int
    }

    @Test("the HTTP control API scripts faults and body cuts, reads counts, expires tokens and gives verification tokens")
    func httpControlAPI() async throws {
        try await ServerUnderTest.run { server in
            let token = try await server.demoAccessToken()
            let script = #"{"path": "/api/radars", "method": "GET", "count": 2, "fault": "status", "status": 503}"#
            let scripted = try await server.send("POST", "/debug/faults", body: Data(script.utf8))
            #expect(scripted.status == 201)
            #expect(try await server.send("GET", "/api/radars", token: token).status == 503)
            let stats = try await server.send("GET", "/debug/stats?path=/api/radars&method=GET")
            #expect(try stats.decode([String: Int].self) == ["count": 1])
            #expect(try await server.send("DELETE", "/debug/faults").status == 204)
            #expect(server.server.faults.remaining(path: "/api/radars") == 0)

            let rateLimit = #"{"path": "/debug/ping", "fault": "rateLimited", "retryAfter": "7"}"#
            #expect(try await server.send("POST", "/debug/faults", body: Data(rateLimit.utf8)).status == 201)
            #expect(try await server.send("GET", "/debug/ping").header("Retry-After") == "7")
            let unknownFault = #"{"path": "/debug/ping", "fault": "explode"}"#
            #expect(try await server.send("POST", "/debug/faults", body: Data(unknownFault.utf8)).status == 422)

            let cut = #"{"path": "/debug/blobs/cut", "afterBodyBytes": 16, "count": 2}"#
            let cutScripted = try await server.send("POST", "/debug/body-faults", body: Data(cut.utf8))
            #expect(cutScripted.status == 201)
            #expect(try cutScripted.decode(ScriptedCut.self) == ScriptedCut(path: "/debug/blobs/cut", remaining: 2))
            #expect(server.server.bodyFaults.remaining(path: "/debug/blobs/cut") == 2)
            let negative = #"{"path": "/debug/blobs/cut", "afterBodyBytes": -1}"#
            #expect(try await server.send("POST", "/debug/body-faults", body: Data(negative.utf8)).status == 422)
            #expect(try await server.send("DELETE", "/debug/body-faults").status == 204)
            #expect(server.server.bodyFaults.remaining(path: "/debug/blobs/cut") == 0)

            #expect(try await server.send("POST", "/debug/auth/expire-tokens").status == 204)
            #expect(try await server.send("GET", "/api/radars", token: token).errorBody().code == "token_expired")
            let lifetime = try await server.send("POST", "/debug/auth/token-lifetime", body: Data(#"{"seconds": 2}"#.utf8))
            #expect(lifetime.status == 204)
            #expect(try await server.server.issueTokens(email: "demo@courier.dev").expiresIn == 2)

            _ = try await server.register("new@example.com")
            let verification = try await server.send("GET", "/debug/auth/verification-token?email=new@example.com")
            let pending = await server.server.verificationToken(email: "new@example.com")
            #expect(try verification.decode([String: String].self)["token"] == pending)
            #expect(try await server.send("GET", "/debug/auth/verification-token?email=demo@courier.dev").status == 404)
        }
    }
}

/// Idempotency keys on the Radar API's writes.
@Suite("Reference server: idempotency keys")
struct ReferenceServerIdempotencyTests {
    @Test("the same key twice creates one radar; the repeat replays the first answer with Idempotent-Replayed: true")
    func sameKeyTwiceCreatesOneRadar() async throws {
        try await ServerUnderTest.run { server in
            let token = try await server.register("writer@example.com")
            let body = CreateRadarRequest(topic: "Idempotent writes are worth it")
            let key = ["Idempotency-Key": "create-1"]
            let first = try await server.send("POST", "/api/radars", json: body, token: token, headers: key)
            let second = try await server.send("POST", "/api/radars", json: body, token: token, headers: key)

            #expect(first.status == 201 && second.status == 201)
            #expect(first.header("Idempotent-Replayed") == nil)
            #expect(second.header("Idempotent-Replayed") == "true")
            #expect(second.data == first.data)
            #expect(second.header("Location") == first.header("Location"))
            let mine = try await server.send("GET", "/api/radars?limit=100", token: token).decode([Radar].self)
            #expect(mine.filter { $0.topic == body.topic }.count == 1)
        }
    }

    @Test("a key reused with a different body, method or path is 422 idempotency_key_reused")
    func reusedKeyWithADifferentRequestIsRejected() async throws {
        try await ServerUnderTest.run { server in
            let token = try await server.register("writer@example.com")
            let key = ["Idempotency-Key": "create-2"]
            let created = try await server.send("POST", "/api/radars", json: CreateRadarRequest(topic: "First topic"), token: token, headers: key)
            #expect(created.status == 201)
            let radar = try created.decode(Radar.self)

            let otherBody = try await server.send("POST", "/api/radars", json: CreateRadarRequest(topic: "Second topic"), token: token, headers: key)
            let otherPath = try await server.send("POST", "/api/radars/\(radar.id)/refresh", token: token, headers: key)
            let otherMethod = try await server.send("DELETE", "/api/radars/\(radar.id)", token: token, headers: key)
            for reply in [otherBody, otherPath, otherMethod] {
                #expect(reply.status == 422)
                #expect(try reply.errorBody().code == "idempotency_key_reused")
            }
            #expect(try await server.send("GET", "/api/radars/\(radar.id)", token: token).decode(Radar.self).refreshCount == 0)
        }
    }

    @Test("keys are per user, and a replayed delete answers 200 {} again without touching anything")
    func keysArePerUserAndDeletesReplay() async throws {
        try await ServerUnderTest.run { server in
            let alice = try await server.register("alice@example.com")
            let bob = try await server.register("bob@example.com")
            let key = ["Idempotency-Key": "shared-key"]
            let mine = try await server.send("POST", "/api/radars", json: CreateRadarRequest(topic: "Alice's"), token: alice, headers: key)
            let theirs = try await server.send("POST", "/api/radars", json: CreateRadarRequest(topic: "Alice's"), token: bob, headers: key)
            #expect(theirs.header("Idempotent-Replayed") == nil)
            #expect(try mine.decode(Radar.self).id != theirs.decode(Radar.self).id)

            let id = try mine.decode(Radar.self).id
            let deleteKey = ["Idempotency-Key": "delete-\(id)"]
            let deleted = try await server.send("DELETE", "/api/radars/\(id)", token: alice, headers: deleteKey)
            let replayed = try await server.send("DELETE", "/api/radars/\(id)", token: alice, headers: deleteKey)
            #expect(deleted.status == 200 && replayed.status == 200, "seed 000's client decodes an empty object from the answer")
            #expect(replayed.data == Data("{}".utf8))
            #expect(replayed.header("Idempotent-Replayed") == "true")
            #expect(try await server.send("DELETE", "/api/radars/\(id)", token: alice).status == 404)
        }
    }

    @Test("a fault-injected answer is not stored: the retry with the same key is processed")
    func faultedAnswersAreNotStored() async throws {
        try await ServerUnderTest.run { server in
            let token = try await server.demoAccessToken()
            server.server.faults.inject(.status(503), method: "POST", path: "/api/radars")
            let body = CreateRadarRequest(topic: "Retried after a 503")
            let key = ["Idempotency-Key": "retry-me"]
            let faulted = try await server.send("POST", "/api/radars", json: body, token: token, headers: key)
            let retried = try await server.send("POST", "/api/radars", json: body, token: token, headers: key)
            #expect(faulted.status == 503)
            #expect(retried.status == 201)
            #expect(retried.header("Idempotent-Replayed") == nil)
        }
    }

    @Test("while a keyed request is in flight, a duplicate is told in_flight and a different request reused")
    func aDuplicateOfAnInFlightRequestIsRefused() async throws {
        let store = IdempotencyStore()
        let create = IdempotencyStore.Fingerprint(method: "POST", path: "/api/radars", bodyDigest: "aa")
        let other = IdempotencyStore.Fingerprint(method: "POST", path: "/api/radars", bodyDigest: "bb")
        #expect(await store.begin(userId: "u_1", key: "k", fingerprint: create).isProceed)
        #expect(await store.begin(userId: "u_1", key: "k", fingerprint: create).isInFlight)
        #expect(await store.begin(userId: "u_1", key: "k", fingerprint: other).isReused)
        #expect(await store.begin(userId: "u_2", key: "k", fingerprint: create).isProceed, "keys are per user")

        await store.abandon(userId: "u_1", key: "k")
        #expect(await store.begin(userId: "u_1", key: "k", fingerprint: create).isProceed, "an abandoned key is free again")
    }

    @Test("over HTTP, a duplicate sent while the first is still running is 409 idempotency_key_in_flight")
    func aConcurrentDuplicateIsInFlightOverHTTP() async throws {
        try await ServerUnderTest.run { server in
            let tokens = try await server.server.issueTokens(email: "demo@courier.dev")
            // Mark the key in flight as the first request would, then send the duplicate.
            let body = try JSONEncoder().encode(CreateRadarRequest(topic: "Still running"))
            let digest = IdempotentWrite.digest(of: body)
            let fingerprint = IdempotencyStore.Fingerprint(method: "POST", path: "/api/radars", bodyDigest: digest)
            _ = await server.server.idempotencyStore.begin(userId: tokens.user.id, key: "busy", fingerprint: fingerprint)

            let duplicate = try await server.send("POST", "/api/radars", body: body, token: tokens.accessToken, headers: ["Idempotency-Key": "busy"])
            #expect(duplicate.status == 409)
            #expect(try duplicate.errorBody().code == "idempotency_key_in_flight")
        }
    }
}

extension IdempotencyStore.Decision {
    var isProceed: Bool { if case .proceed = self { true } else { false } }
    var isInFlight: Bool { if case .inFlight = self { true } else { false } }
    var isReused: Bool { if case .reused = self { true } else { false } }
}

#if canImport(Glibc)
/// One HTTP/1.1 exchange over a plain socket, to see exactly which bytes the server sends.
enum RawHTTPExchange {
    /// What came back.
    struct Received {
        /// Every byte the server sent before closing or going quiet.
        let bytes: [UInt8]
        /// Whether the server closed the connection (rather than the read timing out).
        let closedByPeer: Bool
    }

    struct SocketError: Error {
        let operation: String
        let code: Int32
    }

    /// Connects to 127.0.0.1:`port`, sends `request`, and reads until the server closes or 15 s pass.
    ///
    /// The socket calls block, so they run on a thread of their own: on one of the concurrency
    /// pool's few threads (two on a 2-core machine) they would hold it while the server, in the
    /// same process, needs that pool to answer, and stall every other test meanwhile.
    static func send(_ request: String, toPort port: Int) async throws -> Received {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try exchange(request, toPort: port) }) }.start()
        }
    }

    private static func exchange(_ request: String, toPort port: Int) throws -> Received {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError(operation: "socket", code: errno) }
        defer { close(descriptor) }

        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw SocketError(operation: "connect", code: errno) }

        let bytes = Array(request.utf8)
        guard Glibc.send(descriptor, bytes, bytes.count, 0) == bytes.count else {
            throw SocketError(operation: "send", code: errno)
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
            } else {
                // 0: orderly close; -1 with ECONNRESET: closed by reset; -1 otherwise: timeout or failure.
                let closed = count == 0 || errno == ECONNRESET
                return Received(bytes: received, closedByPeer: closed)
            }
        }
    }
}
#endif
