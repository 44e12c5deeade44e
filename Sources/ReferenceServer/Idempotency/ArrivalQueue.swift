/// A first-in, first-out queue on an array: appending and taking from the front are O(1)
/// amortised, with the consumed front compacted away once it is half the storage.
///
/// ``IdempotencyStore`` keeps its keys in the order they began and completed here, to evict
/// the oldest without searching. Elements may go stale (their entry removed or replaced);
/// the store skips those as it meets them and drops them all in ``keep(where:)``.
struct ArrivalQueue<Element: Sendable>: Sendable {
    private var storage: [Element] = []
    private var head = 0

    /// Creates an empty queue.
    init() {}

    /// The number of elements, stale ones included.
    var count: Int { storage.count - head }

    /// The oldest element, or `nil` when the queue is empty.
    var first: Element? { head < storage.count ? storage[head] : nil }

    /// Adds an element at the back.
    mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Removes and returns the oldest element, or `nil` when the queue is empty.
    @discardableResult
    mutating func removeFirst() -> Element? {
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

    /// Keeps only the elements that satisfy `isKept`, in order.
    mutating func keep(where isKept: (Element) -> Bool) {
        storage = storage[head...].filter(isKept)
        head = 0
    }
}
