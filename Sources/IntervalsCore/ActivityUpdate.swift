/// The fields of an ``Activity`` an athlete may change, sent as the body of
/// `PUT /api/v1/activity/{id}`.
///
/// Only the fields that are set are written: `{"name": "Morning ride"}` renames and leaves the
/// sport alone. A field is never sent as `null`, which a server could read as "clear it".
public struct ActivityUpdate: Codable, Sendable, Hashable {
    /// A new title: `name`.
    public var name: String?
    /// A corrected sport: `type`.
    public var type: ActivityType?

    /// Makes an update; `nil` fields are left out of the body and stay as they are.
    /// - Parameters:
    ///   - name: A new title.
    ///   - type: A corrected sport.
    public init(name: String? = nil, type: ActivityType? = nil) {
        self.name = name
        self.type = type
    }

    /// The JSON keys, as intervals.icu spells them.
    enum CodingKeys: String, CodingKey {
        case name
        case type
    }

    /// Reads the fields that are present.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        type = try container.decodeIfPresent(ActivityType.self, forKey: .type)
    }

    /// Writes only the fields that are set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(type, forKey: .type)
    }
}
