/// Byte comparison whose duration does not depend on where the inputs differ.
enum ConstantTimeComparison {
    /// Whether two byte arrays are equal; the time taken depends only on their lengths.
    static func equal(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices {
            difference |= lhs[index] ^ rhs[index]
        }
        return difference == 0
    }
}
