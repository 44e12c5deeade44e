/// One page of radars, as the client reads `GET /api/radars?limit&offset`.
///
/// The document's list endpoint answers a bare JSON array of ``Radar``; the page is not a wire
/// type. How many radars exist in all is not part of the documented body: a server may send it
/// in an `X-Total-Count` header, and ``total`` is `nil` when it does not.
public struct RadarPage: Sendable, Hashable {
    /// The radars on this page, newest first.
    public var items: [Radar]
    /// How many radars exist in all, when the server said so (`X-Total-Count`).
    public var total: Int?
    /// The largest number of items the page could hold.
    public var limit: Int
    /// How many radars were skipped before this page.
    public var offset: Int

    /// Creates a page.
    /// - Parameters:
    ///   - items: The radars on this page.
    ///   - total: How many radars exist in all, if known.
    ///   - limit: The largest number of items the page could hold.
    ///   - offset: How many radars were skipped before this page.
    public init(items: [Radar], total: Int?, limit: Int, offset: Int) {
        self.items = items
        self.total = total
        self.limit = limit
        self.offset = offset
    }

    /// Whether a page may follow this one: the server's total says so, or, without a total,
    /// this page is full.
    public var mayHaveMore: Bool {
        if let total { return offset + items.count < total }
        return items.count >= limit
    }

    /// The name of the response header that carries ``total``.
    public static let totalCountHeader = "X-Total-Count"
}
