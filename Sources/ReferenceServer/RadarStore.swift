import Foundation
import RadarCore

/// The server's radars, safe to use from concurrent requests.
///
/// Wraps a ``RadarCatalog`` and supplies the time: timestamps are cut to whole seconds so
/// that what a client decodes equals what the server stored.
actor RadarStore {
    private var catalog: RadarCatalog
    private let clock: @Sendable () -> Date

    /// Creates a store holding the demo radars.
    /// - Parameters:
    ///   - seed: The seed of the synthetic content.
    ///   - clock: The source of the current time.
    init(seed: UInt64, clock: @escaping @Sendable () -> Date = RadarStore.wholeSecondNow) {
        var catalog = RadarCatalog(seed: seed)
        catalog.addDemoRadars(now: clock())
        self.catalog = catalog
        self.clock = clock
    }

    /// The current time, without fractional seconds.
    static func wholeSecondNow() -> Date {
        Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    }

    /// One page of radars, newest first.
    func page(limit: Int, offset: Int) -> RadarPage {
        catalog.page(limit: limit, offset: offset)
    }

    /// The radar with this id, if any.
    func radar(id: String) -> Radar? {
        catalog.radar(id: id)
    }

    /// Creates a radar owned by the demo user.
    func create(topic: String, isPublic: Bool) -> Radar {
        catalog.create(topic: topic, isPublic: isPublic, userId: RadarCatalog.demoUserId, now: clock())
    }

    /// Removes a radar; returns whether it existed.
    func delete(id: String) -> Bool {
        catalog.delete(id: id)
    }

    /// Refreshes a radar; returns `nil` if it does not exist.
    func refresh(id: String) -> Radar? {
        catalog.refresh(id: id, now: clock())
    }

    /// A radar's opinions, newest first; `nil` if it does not exist.
    func opinions(radarId: String) -> [Opinion]? {
        catalog.opinions(radarId: radarId)
    }

    /// The trend of a radar's last `days` days; `nil` if it does not exist.
    func trend(radarId: String, days: Int) -> Trend? {
        guard let radar = catalog.radar(id: radarId) else { return nil }
        return TrendCalculator().trend(radarId: radarId, opinions: radar.opinions, days: days, now: clock())
    }

    /// Interprets a topic without creating a radar.
    func interpret(topic: String) -> Interpretation {
        catalog.interpret(topic: topic)
    }
}
