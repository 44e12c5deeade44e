// A minimal program for asking whether ThreadSanitizer understands `Synchronization.Mutex`:
// two threads add to one counter under a `Mutex`, 100,000 times each. The total is always
// 200,000, so the mutex does its work; any "data race" or "Swift access race" TSan reports
// here is about the tool, not about the code.
//
//   swiftc -swift-version 6 -parse-as-library -sanitize=thread -O scripts/tsan-repro/MutexCounter.swift -o /tmp/mutex-counter
//   /tmp/mutex-counter
import Foundation
import Synchronization

final class Counter: Sendable {
    private let value = Mutex(0)
    func add() { value.withLock { $0 += 1 } }
    var total: Int { value.withLock { $0 } }
}

@main
struct MutexCounter {
    static func main() {
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<100_000 { counter.add() }
        }
        print("total \(counter.total) (expected 200000)")
        exit(counter.total == 200_000 ? 0 : 1)
    }
}
