// A minimal program for asking whether ThreadSanitizer understands reuse by unique ownership,
// the way swift-nio's pooled receive buffers are reused (`NIOPooledRecvBufferAllocator`): a
// reader on another thread gets its own reference to a buffer, reads through it and releases
// it; the owner waits until `isKnownUniquelyReferenced` says the buffer is its alone again,
// then writes to it. The release and the uniqueness check order the read before the write
// (the sum printed is always 199990000: every read saw the previous round's value, never a
// later one), yet TSan reports a data race between them: the reference count's atomics live
// in the uninstrumented Swift runtime, so it does not see that order.
//
// Swift 5 mode: handing a non-Sendable reference to another thread is what is being tested.
//
//   swiftc -swift-version 5 -parse-as-library -sanitize=thread -O scripts/tsan-repro/UniqueReuse.swift -o /tmp/unique-reuse
//   /tmp/unique-reuse
import Foundation
import Synchronization

final class Buffer {
    let memory = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    init() { memory.initialize(to: 0) }
    deinit { memory.deallocate() }
}

/// Where the reader puts what it read, so that the read is not optimised away.
let sink = Atomic<Int>(0)

@main
struct UniqueReuse {
    static func main() {
        var buffer = Buffer()
        let reader = DispatchQueue(label: "reader")
        for round in 1...20_000 {
            // The reader gets its own reference, reads through it, and lets it go.
            let lent = Unmanaged.passRetained(buffer)
            reader.async {
                sink.add(lent.takeUnretainedValue().memory.pointee, ordering: .relaxed)
                lent.release()
            }
            // Once the reader has let go, the buffer is ours alone again: reuse it.
            while !isKnownUniquelyReferenced(&buffer) {}
            buffer.memory.pointee = round
        }
        let sum = sink.load(ordering: .relaxed)
        print("reused 20000 times, sum \(sum) (expected 199990000)")
        exit(sum == 199_990_000 ? 0 : 1)
    }
}
