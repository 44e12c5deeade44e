/// A small generic repository: get, list, save and delete by id, built from typed requests
/// and a cache policy.
///
/// It replaces the pattern of a base class whose methods are placeholders to override: each
/// operation is a request-making closure, so a repository for any API is a value.
///
/// ```swift
/// let activities = Repository<Activity, String>(
///     client: client,
///     cachePolicy: .cacheFirst,
///     get: { ActivityEndpoints.get(id: $0) },
///     list: { ActivityEndpoints.list() },
///     save: { ActivityEndpoints.update($0) },
///     delete: { ActivityEndpoints.delete(id: $0) }
/// )
/// let recent = try await activities.list()
/// ```
///
/// Reads use ``cachePolicy`` (with an ``HTTPCache`` on the client); writes go to the network,
/// and a successful write invalidates the stored responses of its URL.
public struct Repository<Item: Decodable & Sendable, ID: Sendable>: Sendable {
    /// The client that sends the requests.
    public let client: APIClient
    /// The cache policy for reads.
    public var cachePolicy: CachePolicy
    private let getRequest: @Sendable (ID) -> Request<Item>
    private let listRequest: @Sendable () -> Request<[Item]>
    private let saveRequest: (@Sendable (Item) -> Request<Item>)?
    private let deleteRequest: (@Sendable (ID) -> Request<Void>)?

    /// Makes a repository.
    /// - Parameters:
    ///   - client: The client.
    ///   - cachePolicy: The cache policy for reads (``CachePolicy/http`` by default).
    ///   - get: The request that reads one item.
    ///   - list: The request that reads all items.
    ///   - save: The request that writes one item, if the API allows it.
    ///   - delete: The request that deletes one item, if the API allows it.
    public init(
        client: APIClient,
        cachePolicy: CachePolicy = .http,
        get: @escaping @Sendable (ID) -> Request<Item>,
        list: @escaping @Sendable () -> Request<[Item]>,
        save: (@Sendable (Item) -> Request<Item>)? = nil,
        delete: (@Sendable (ID) -> Request<Void>)? = nil
    ) {
        self.client = client
        self.cachePolicy = cachePolicy
        self.getRequest = get
        self.listRequest = list
        self.saveRequest = save
        self.deleteRequest = delete
    }

    /// One item.
    /// - Throws: ``CourierError``; ``CourierError/Code/notFound`` when there is no such item.
    public func get(id: ID) async throws -> Item {
        try await client.value(for: reading(getRequest(id)))
    }

    /// All items.
    /// - Throws: ``CourierError``.
    public func list() async throws -> [Item] {
        try await client.value(for: reading(listRequest()))
    }

    /// Writes an item and returns the server's version of it.
    /// - Throws: ``CourierError``; ``CourierError/Code/invalidRequest`` when the repository has no save request.
    public func save(_ item: Item) async throws -> Item {
        guard let saveRequest else { throw Self.unsupported("save") }
        return try await client.value(for: saveRequest(item))
    }

    /// Deletes an item.
    /// - Throws: ``CourierError``; ``CourierError/Code/invalidRequest`` when the repository has no delete request.
    public func delete(id: ID) async throws {
        guard let deleteRequest else { throw Self.unsupported("delete") }
        try await client.send(deleteRequest(id))
    }

    private func reading<Value>(_ request: Request<Value>) -> Request<Value> {
        var request = request
        if request.options.cachePolicy == nil { request.options.cachePolicy = cachePolicy }
        return request
    }

    private static func unsupported(_ operation: String) -> CourierError {
        CourierError(code: .invalidRequest, message: "this repository has no \(operation) request")
    }
}
