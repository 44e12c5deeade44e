/// A page in the `data` + `meta` shape many APIs use:
/// `{"data": [...], "meta": {"currentPage": 1, "totalPages": 4, "totalCount": 80, "hasNextPage": true}}`.
public struct PaginatedResponse<Item: Decodable & Sendable>: Decodable, Sendable {
    /// Where a page stands among all pages.
    public struct Meta: Decodable, Sendable, Hashable {
        /// The page's number, starting at 1.
        public var currentPage: Int
        /// How many pages there are.
        public var totalPages: Int
        /// How many items there are in all.
        public var totalCount: Int
        /// Whether another page follows.
        public var hasNextPage: Bool

        /// Makes page information.
        public init(currentPage: Int, totalPages: Int, totalCount: Int, hasNextPage: Bool) {
            self.currentPage = currentPage
            self.totalPages = totalPages
            self.totalCount = totalCount
            self.hasNextPage = hasNextPage
        }
    }

    /// The page's items.
    public var data: [Item]
    /// Where the page stands.
    public var meta: Meta

    /// Makes a page.
    public init(data: [Item], meta: Meta) {
        self.data = data
        self.meta = meta
    }
}
