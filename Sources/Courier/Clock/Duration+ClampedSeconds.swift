extension Duration {
    /// The longest wait Courier schedules from a number of seconds it did not choose itself
    /// (a stored retry date, a server's hint): about 100 years.
    static let longestScheduledWait = Duration.seconds(3_153_600_000)

    /// A wait of `seconds`, made safe for values read from storage or the network: `NaN` and
    /// negative values become zero, and anything past ``longestScheduledWait`` (infinity
    /// included) becomes that, so that the conversion never traps.
    /// - Parameter seconds: The wait in seconds.
    static func clampedSeconds(_ seconds: Double) -> Duration {
        guard seconds.isFinite else { return seconds.isNaN || seconds < 0 ? .zero : longestScheduledWait }
        guard seconds > 0 else { return .zero }
        guard seconds < 3_153_600_000 else { return longestScheduledWait }
        return .milliseconds(Int64((seconds * 1_000).rounded(.up)))
    }
}
