import HTTPTypes

/// What makes two GETs identical for ``DedupStage``: the same scheme, authority (in lower
/// case), path and query, the same signed-in user, and the same header fields in any order,
/// the request id aside.
///
/// The hash is worked out once, when the key is made, from the path, authority and user
/// only; the in-flight registry then hashes a key as one `Int` however often it looks it up.
/// Equality compares everything, the fields as a multiset.
struct DedupKey: Hashable, Sendable {
    // The parts are stored in the key itself, not in an object of their own: a copy of a key
    // costs a retain per part, where an object would cost an allocation for every GET.
    private let scheme: String
    private let authority: String
    private let path: String
    private let user: String
    /// The request's fields, the request id included; ``DedupKey/fieldsMatch(_:_:)`` skips it.
    private let fields: HTTPFields
    private let hash: Int

    init(_ request: HTTPRequest, user: String) {
        let scheme = request.scheme ?? "https"
        let authority = ASCII.lowercased(request.authority ?? "")
        let path = request.path ?? "/"
        let fields = request.headerFields
        // The hash covers the target and the user; the fields are left to `==`. Calls in
        // flight together that differ only in their fields are rare, and every call would
        // pay for hashing its fields.
        var hasher = Hasher()
        hasher.combine(path)
        hasher.combine(authority)
        hasher.combine(user)
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.user = user
        self.fields = fields
        self.hash = hasher.finalize()
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }

    static func == (lhs: DedupKey, rhs: DedupKey) -> Bool {
        // The registry mostly compares a key with itself (finding its own entry): equal
        // strings that share storage compare without reading their bytes.
        lhs.hash == rhs.hash && lhs.path == rhs.path && lhs.authority == rhs.authority
            && lhs.scheme == rhs.scheme && lhs.user == rhs.user && fieldsMatch(lhs.fields, rhs.fields)
    }

    /// Whether two field lists hold the same fields, each as often, in any order, the
    /// request id aside. Quadratic, for the handful of fields a request has.
    static func fieldsMatch(_ lhs: HTTPFields, _ rhs: HTTPFields) -> Bool {
        // Keys of requests made the same way hold the same fields in the same order.
        if lhs == rhs { return true }
        func occurrences(of field: HTTPField, in fields: HTTPFields) -> Int {
            fields.reduce(0) { $0 + ($1.name == field.name && $1.value == field.value ? 1 : 0) }
        }
        let counted = { (fields: HTTPFields) in fields.reduce(0) { $0 + ($1.name == .requestID ? 0 : 1) } }
        guard counted(lhs) == counted(rhs) else { return false }
        for field in lhs where field.name != .requestID {
            if occurrences(of: field, in: lhs) != occurrences(of: field, in: rhs) { return false }
        }
        return true
    }
}
