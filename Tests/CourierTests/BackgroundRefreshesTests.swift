@testable import Courier
import Synchronization
import Testing

/// The count of a cache's background refreshes that a harness on a clock of its own waits on.
@Suite("Background refreshes: waiting for them to end")
struct BackgroundRefreshesTests {
    @Test func withNoRefreshUnderWayTheWaitEndsAtOnce() async {
        let refreshes = BackgroundRefreshes()
        await refreshes.idle()
        refreshes.started()
        refreshes.ended()
        await refreshes.idle()
    }

    @Test func theWaitEndsWhenTheLastRefreshEndsAndTheCountTellsTheOrder() async {
        let refreshes = BackgroundRefreshes()
        refreshes.started()
        refreshes.started()
        let order = OrderLog()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await refreshes.idle()
                order.append("idle")
            }
            group.addTask {
                order.append("first ended")
                refreshes.ended()
                order.append("second ended")
                refreshes.ended()
            }
        }
        // Whichever ran first, the wait could only end after the second refresh ended.
        #expect(order.entries.last == "idle")
        #expect(order.entries.firstIndex(of: "second ended")! < order.entries.firstIndex(of: "idle")!)
    }
}

/// Entries appended from several tasks, in the order they came.
private final class OrderLog: Sendable {
    private let log = Mutex<[String]>([])
    func append(_ entry: String) { log.withLock { $0.append(entry) } }
    var entries: [String] { log.withLock { $0 } }
}
