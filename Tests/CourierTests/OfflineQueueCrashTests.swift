import Courier
import Foundation
import ReferenceServer
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("The offline queue survives SIGKILL")
struct OfflineQueueCrashTests {
    @Test func writesQueuedByAProcessKilledMidReplayReachTheServerExactlyOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try await freeLoopbackPort()
        let server = ReferenceServer(configuration: .forTests(port: port))
        let url = "http://127.0.0.1:\(port)"
        let credentials = folder.appendingPathComponent("credential.json")
        let tokens = try await server.issueTokens(email: ReferenceServerConfiguration().demoEmail)
        try await FileCredentialStore(url: credentials).save(Credential(
            accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
            expiresAt: Date().addingTimeInterval(Double(tokens.expiresIn)), accountID: tokens.user.id
        ))
        let common = ["--server", url, "--database", folder.appendingPathComponent("queue.sqlite").path, "--credentials", credentials.path, "--prefix", "crash"]
        let writes = 500

        // 1. The server is down: the child queues every write and exits.
        let enqueue = try startCourier(["queue-child", "enqueue", "--count", "\(writes)"] + common)
        #expect(try await waitForExit(enqueue, limit: .seconds(120)) == 0)

        // 2. The server is back, slowed down a little; the replaying child is killed midway.
        _ = try await server.start()
        server.faults.inject(.delay(.milliseconds(3)), count: writes * 2, method: "POST", path: "/api/radars")
        let doomed = try startCourier(["queue-child", "replay"] + common)
        let started = ContinuousClock.now
        while await server.requestCount(method: "POST", path: "/api/radars") < writes / 4, doomed.isRunning,
              ContinuousClock.now - started < .seconds(60) {
            try await Task.sleep(for: .milliseconds(5))
        }
        let deliveredBeforeKill = await server.requestCount(method: "POST", path: "/api/radars")
        #expect(doomed.isRunning, "the replay was still going when it was killed")
        kill(doomed.processIdentifier, SIGKILL)
        _ = try await waitForExit(doomed, limit: .seconds(10))
        #expect(doomed.terminationReason == .uncaughtSignal)
        #expect(deliveredBeforeKill < writes)

        // 3. Restarted, the child finishes the replay.
        let survivor = try startCourier(["queue-child", "replay"] + common)
        #expect(try await waitForExit(survivor, limit: .seconds(120)) == 0)

        let topics = try await radarTopics(prefix: "crash-", server: server, url: try #require(URL(string: url)))
        #expect(topics.count == writes, "exactly \(writes) records")
        #expect(Set(topics).count == writes, "no duplicates")
        #expect(Set(topics) == Set((0..<writes).map { "crash-\($0)" }))
        await server.stop()
    }
}
