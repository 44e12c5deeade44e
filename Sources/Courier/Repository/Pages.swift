import Synchronization

/// The pages of a paginated endpoint, fetched one at a time as the sequence is iterated.
///
/// ```swift
/// // offset / limit
/// for try await page in Pages.offsetLimit(client: client, limit: 50, request: { offset, limit in
///     RadarEndpoints.list(limit: limit, offset: offset)
/// }, itemCount: { $0.items.count }, total: { $0.total }) {
///     show(page.items)
/// }
/// // page / meta
/// for try await page in Pages.pageMeta(client: client, request: { Insights.history(page: $0) }) { … }
/// ```
///
/// Each page is one `APIClient.value(for:)` call, with the client's whole chain (cache,
/// retry, authentication). A failure ends the iteration with its ``CourierError``. Breaking out
/// of the loop stops fetching.
public struct Pages<Page: Sendable>: AsyncSequence, Sendable {
    /// One page.
    public typealias Element = Page

    /// Where the next page comes from: the request for it, or `nil` at the end. A rule that
    /// throws (a page that cannot be followed) ends the iteration with its error after the
    /// page it was given.
    public typealias NextRequest = @Sendable (_ previous: Page, _ previousRequest: Request<Page>) throws -> Request<Page>?

    private let send: @Sendable (Request<Page>) async throws -> Page
    private let first: Request<Page>
    /// Makes the next-request rule afresh for each iteration, so rules that keep state (the
    /// running offset) start over every time the sequence is iterated.
    private let makeNext: @Sendable () -> NextRequest

    /// Pages from a first request and a rule for the next one.
    /// - Parameters:
    ///   - first: The first page's request.
    ///   - send: Sends one request (usually `client.value(for:)`).
    ///   - next: The next page's request, given the previous page, or `nil` when there is none.
    public init(
        first: Request<Page>,
        send: @escaping @Sendable (Request<Page>) async throws -> Page,
        next: @escaping NextRequest
    ) {
        self.init(first: first, send: send, makeNext: { next })
    }

    private init(
        first: Request<Page>,
        send: @escaping @Sendable (Request<Page>) async throws -> Page,
        makeNext: @escaping @Sendable () -> NextRequest
    ) {
        self.first = first
        self.send = send
        self.makeNext = makeNext
    }

    /// Iterates the pages.
    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let send: @Sendable (Request<Page>) async throws -> Page
        fileprivate let rule: NextRequest
        fileprivate var upcoming: Request<Page>?
        fileprivate var failure: (any Error)?

        /// The next page, or `nil` after the last.
        public mutating func next() async throws -> Page? {
            if let failure {
                self.failure = nil
                throw failure
            }
            guard let request = upcoming else { return nil }
            let page = try await send(request)
            do {
                upcoming = try rule(page, request)
            } catch {
                upcoming = nil
                failure = error
            }
            return page
        }
    }

    /// Makes an iterator that starts at the first page.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(send: send, rule: makeNext(), upcoming: first)
    }
}

extension Pages where Page: Decodable {
    /// Pages of an offset / limit API: the next offset is the previous plus the items received;
    /// it ends on a short page or when `total` is reached.
    /// - Parameters:
    ///   - client: The client.
    ///   - limit: The page size.
    ///   - start: The first offset.
    ///   - request: The request for a page at an offset with a limit.
    ///   - itemCount: How many items a page holds.
    ///   - total: How many items there are in all, when the API says.
    public static func offsetLimit(
        client: APIClient,
        limit: Int,
        start: Int = 0,
        request: @escaping @Sendable (_ offset: Int, _ limit: Int) -> Request<Page>,
        itemCount: @escaping @Sendable (Page) -> Int,
        total: @escaping @Sendable (Page) -> Int? = { _ in nil }
    ) -> Pages {
        Pages(first: request(start, limit), send: { try await client.value(for: $0) }, makeNext: {
            let offsets = OffsetTracker()
            return { page, _ in
                let received = itemCount(page)
                guard let nextOffset = offsets.advance(from: start, by: received) else {
                    throw CourierError(code: .invalidResponse, message: "the next page's offset is past the largest integer")
                }
                if received < limit || received == 0 { return nil }
                if let total = total(page), nextOffset >= total { return nil }
                return request(nextOffset, limit)
            }
        })
    }

    /// Pages of a page / meta API (``PaginatedResponse``): it ends when `hasNextPage` is false.
    /// A server whose page numbers do not go forward (the same page again, or the largest
    /// integer) ends the iteration with ``CourierError/Code/invalidResponse`` rather than
    /// looping or overflowing.
    /// - Parameters:
    ///   - client: The client.
    ///   - firstPage: The first page's number.
    ///   - request: The request for a page number.
    public static func pageMeta<Item>(
        client: APIClient,
        firstPage: Int = 1,
        request: @escaping @Sendable (_ page: Int) -> Request<Page>
    ) -> Pages where Page == PaginatedResponse<Item> {
        Pages(first: request(firstPage), send: { try await client.value(for: $0) }, makeNext: {
            let pages = PageNumberTracker(first: firstPage)
            return { page, _ in
                guard page.meta.hasNextPage else { return nil }
                let (next, overflow) = page.meta.currentPage.addingReportingOverflow(1)
                guard !overflow, pages.advance(to: next) else {
                    throw CourierError(
                        code: .invalidResponse,
                        message: "the server says page \(page.meta.currentPage) has a next page, but its page numbers do not go forward"
                    )
                }
                return request(next)
            }
        })
    }
}


/// The running offset of an offset / limit iteration.
///
/// A `final class` whose offset sits in a `Mutex`, which makes it `Sendable`.
private final class OffsetTracker: Sendable {
    private let received = Mutex(0)

    /// The next offset, or `nil` when it would overflow.
    func advance(from start: Int, by count: Int) -> Int? {
        received.withLock { total in
            let (sum, overflow) = total.addingReportingOverflow(count)
            guard !overflow else { return nil }
            total = sum
            let (next, past) = start.addingReportingOverflow(sum)
            return past ? nil : next
        }
    }
}

/// The highest page number an iteration has asked for, so it only goes forward.
///
/// A `final class` whose number sits in a `Mutex`, which makes it `Sendable`.
private final class PageNumberTracker: Sendable {
    private let highest: Mutex<Int>

    init(first: Int) {
        highest = Mutex(first)
    }

    /// Records `page` as the next one; `false` when it is not past every page asked for.
    func advance(to page: Int) -> Bool {
        highest.withLock { highest in
            guard page > highest else { return false }
            highest = page
            return true
        }
    }
}
