extension KeyedDecodingContainer {
    /// A whole number that the service may write either as `88` or as `88.0`; `nil` when the
    /// key is missing or `null`. A number with a fraction is a type mismatch, not rounded away.
    func decodeWholeNumberIfPresent(forKey key: Key) throws -> Int? {
        if let integer = try? decodeIfPresent(Int.self, forKey: key) { return integer }
        guard let number = try decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard number.rounded() == number, let integer = Int(exactly: number) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "expected a whole number, found \(number)")
        }
        return integer
    }
}
