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
        try await withGatedServer { server, gate in
            let url = gate.url.absoluteString
            let credentials = folder.appendingPathComponent("credential.json")
            let tokens = try await server.issueTokens(email: ReferenceServerConfiguration().demoEmail)
            try await FileCredentialStore(url: credentials).save(Credential(
                accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
                expiresAt: Date().addingTimeInterval(Double(tokens.expiresIn)), accountID: tokens.user.id
            ))
            let common = ["--server", url, "--database", folder.appendingPathComponent("queue.sqlite").path, "--credentials", credentials.path, "--prefix", "crash"]
            let writes = 500

            // 1. The server is unreachable (the gate refuses connections): the child queues
            //    every write and exits.
            let enqueue = try startCourier(["queue-child", "enqueue", "--count", "\(writes)"] + common)
            #expect(try await waitForExit(enqueue, limit: .seconds(120)) == 0)
            #expect(await server.requestCount(method: "POST", path: "/api/radars") == 0, "nothing got through the closed gate")

            // 2. The server is reachable, and slowed down a little (part of the scenario: the
            //    replay must still be going when it is killed); the replaying child is killed midway.
            try await gate.open()
            server.faults.inject(.delay(.milliseconds(3)), count: writes * 2, method: "POST", path: "/api/radars")
            let doomed = try startCourier(["queue-child", "replay"] + common)
            // The deliveries come from another process and the server reports them only as a
            // count: there is no event to wait on here, so this polls the count, bounded.
            _ = await pollUntil(within: .seconds(60)) {
                await server.requestCount(method: "POST", path: "/api/radars") >= writes / 4 || doomed.exited.count > 0
            }
            let deliveredBeforeKill = await server.requestCount(method: "POST", path: "/api/radars")
            #expect(doomed.exited.count == 0, "the replay was still going when it was killed")
            kill(doomed.process.processIdentifier, SIGKILL)
            _ = try await waitForExit(doomed, limit: .seconds(10))
            #expect(doomed.process.terminationReason == .uncaughtSignal)
            #expect(deliveredBeforeKill < writes)

            // 3. Restarted, the child finishes the replay.
            let survivor = try startCourier(["queue-child", "replay"] + common)
            #expect(try await waitForExit(survivor, limit: .seconds(120)) == 0)

            let topics = try await radarTopics(prefix: "crash-", server: server, url: gate.url)
            #expect(topics.count == writes, "exactly \(writes) records")
            #expect(Set(topics).count == writes, "no duplicates")
            #expect(Set(topics) == Set((0..<writes).map { "crash-\($0)" }))
        }
    }
}
