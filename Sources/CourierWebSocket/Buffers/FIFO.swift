/// A first-in, first-out queue with amortised O(1) push and pop: an array and a head index,
/// compacted once half of it has been consumed.
struct FIFO<Element> {
    private var storage: [Element] = []
    private var head = 0

    var count: Int { storage.count - head }
    var isEmpty: Bool { head == storage.count }
    var first: Element? { head < storage.count ? storage[head] : nil }

    mutating func append(_ element: Element) {
        storage.append(element)
    }

    mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    mutating func removeAll() -> [Element] {
        let rest = Array(storage[head...])
        storage.removeAll()
        head = 0
        return rest
    }
}

extension FIFO: Sendable where Element: Sendable {}
