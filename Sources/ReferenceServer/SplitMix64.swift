/// A small, fast, seeded pseudo-random generator (Steele, Lea and Flood's SplitMix64).
///
/// The server draws all synthetic content from it, never from the system generator, so
/// the same seed gives the same content on every platform and Swift version.
struct SplitMix64: Sendable {
    private var state: UInt64

    /// Creates a generator from a seed.
    init(seed: UInt64) {
        self.state = seed
    }

    /// Creates a generator whose sequence depends on a seed and a list of strings and numbers.
    /// - Parameters:
    ///   - seed: The base seed.
    ///   - text: A string mixed into the seed, for example a radar id.
    ///   - number: A number mixed into the seed, for example a refresh count.
    init(seed: UInt64, text: String, number: Int) {
        var mixer = SplitMix64(seed: seed ^ Self.fnv1a(text))
        let mixedText = mixer.next()
        var numberMixer = SplitMix64(seed: mixedText ^ UInt64(bitPattern: Int64(number)))
        self.state = numberMixer.next()
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniformly distributed value in `0 ..< 1`.
    mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A value in `range`, uniformly distributed.
    mutating func nextDouble(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + nextUnit() * (range.upperBound - range.lowerBound)
    }

    /// An index in `0 ..< count`; `count` must be positive.
    mutating func nextIndex(below count: Int) -> Int {
        Int(next() % UInt64(count))
    }

    /// One element of a non-empty array.
    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[nextIndex(below: elements.count)]
    }

    /// The 64-bit FNV-1a hash of a string's UTF-8 bytes: stable across runs, unlike `Hasher`.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
