/// One page of radars, as answered by `GET /api/radars`.
public struct RadarPage: Codable, Sendable, Hashable {
    /// The radars on this page, newest first.
    public var items: [Radar]
    /// How many radars exist in all.
    public var total: Int
    /// The largest number of items the page could hold.
    public var limit: Int
    /// How many radars were skipped before this page.
    public var offset: Int

    /// Creates a page.
    /// - Parameters:
    ///   - items: The radars on this page.
    ///   - total: How many radars exist in all.
    ///   - limit: The largest number of items the page could hold.
    ///   - offset: How many radars were skipped before this page.
    public init(items: [Radar], total: Int, limit: Int, offset: Int) {
        self.items = items
        self.total = total
        self.limit = limit
        self.offset = offset
    }
}
