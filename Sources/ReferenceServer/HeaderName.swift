import Hummingbird

/// A header field name, spelled through `HTTPFields` so the target needs no direct
/// dependency on swift-http-types.
typealias HeaderName = HTTPFields.Element.Name

extension HTTPFields {
    /// All values of a header joined with `", "`, or `nil` when the header is absent.
    func joinedValues(for name: HeaderName) -> String? {
        let values = self[values: name]
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}

extension HeaderName {
    /// `X-Total-Count`: how many items a list has in all, beside a page of it.
    static let totalCount = HeaderName("X-Total-Count")!
}
