public import Courier

extension JSONValue {
    /// A copy of an object with one more member; other values are returned unchanged.
    /// - Parameters:
    ///   - key: The member's name.
    ///   - value: Its value.
    public func adding(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        members[key] = value
        return .object(members)
    }
}
