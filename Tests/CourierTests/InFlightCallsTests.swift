@testable import Courier
import Foundation
import HTTPTypes
import Testing

@Suite("In-flight calls: joining a call that is ending")
struct InFlightCallsTests {
    /// Many callers join calls that end at once, so that some find a call in flight and look
    /// for it again only after its leader removed it. Such a caller must make or join another
    /// call, never fail: nobody cancelled it. (It failed with `CancellationError` before; the
    /// soak found it as `.cancelled` errors on cached reads.) Bounded: 200 rounds of 8 callers.
    @Test func aCallerArrivingAsTheCallEndsGetsAResponseNotACancellation() async throws {
        let calls = InFlightCalls<String>()
        let response = SharedResponse(head: HTTPResponse(status: .ok), body: Data("ok".utf8))
        for round in 0..<200 {
            let failures = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        do {
                            let shared = try await calls.join("key-\(round)", run: {
                                await Task.yield()
                                return response
                            }, restart: { { response } })
                            return shared.body != response.body
                        } catch {
                            return true
                        }
                    }
                }
                var failed = 0
                for await didFail in group where didFail { failed += 1 }
                return failed
            }
            #expect(failures == 0, "round \(round): \(failures) of 8 callers failed")
            if failures > 0 { break }
        }
        #expect(calls.totalWaiterCount == 0)
    }
}
