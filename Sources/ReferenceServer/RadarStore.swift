import Foundation
import RadarCore

/// The server's radars, safe to use from concurrent requests.
///
/// Wraps a ``RadarCatalog``, applies who may see and change what (a user sees their own
/// radars and public ones, and changes only their own), and supplies the time: timestamps
/// are cut to whole seconds so that what a client decodes equals what the server stored.
actor RadarStore {
    private var catalog: RadarCatalog
    private let clock: @Sendable () -> Date
    /// Where refreshes are published as live updates.
    private let updates: RadarUpdateFeed?

    /// Creates a store holding the demo radars.
    /// - Parameters:
    ///   - seed: The seed of the synthetic content.
    ///   - demoOwnerId: The user who owns the demo radars.
    ///   - clock: The source of the current time.
    ///   - updates: Where refreshes are published as live updates, if anywhere.
    init(
        seed: UInt64,
        demoOwnerId: String,
        clock: @escaping @Sendable () -> Date = RadarStore.wholeSecondNow,
        updates: RadarUpdateFeed? = nil
    ) {
        var catalog = RadarCatalog(seed: seed)
        catalog.addDemoRadars(ownerId: demoOwnerId, now: clock())
        self.catalog = catalog
        self.clock = clock
        self.updates = updates
    }

    /// The current time, without fractional seconds.
    static func wholeSecondNow() -> Date {
        Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    }

    /// One page of the radars a user may see, newest first.
    func page(limit: Int, offset: Int, userId: String) -> RadarPage {
        catalog.page(limit: limit, offset: offset, visibleTo: userId)
    }

    /// The radar with this id, if the user may see it.
    func radar(id: String, userId: String) -> Radar? {
        catalog.radar(id: id, visibleTo: userId)
    }

    /// Creates a radar owned by a user.
    func create(topic: String, isPublic: Bool, userId: String) -> Radar {
        catalog.create(topic: topic, isPublic: isPublic, userId: userId, now: clock())
    }

    /// Removes a radar of the user's; returns whether they had one with this id.
    func delete(id: String, userId: String) -> Bool {
        guard catalog.radar(id: id)?.userId == userId else { return false }
        return catalog.delete(id: id)
    }

    /// Refreshes a radar of the user's; returns `nil` if they have none with this id.
    func refresh(id: String, userId: String) -> Radar? {
        guard let before = catalog.radar(id: id), before.userId == userId else { return nil }
        let after = catalog.refresh(id: id, now: clock())
        if let after { updates?.radarRefreshed(from: before, to: after) }
        return after
    }

    /// A radar's opinions, newest first; `nil` if the user may not see a radar with this id.
    func opinions(radarId: String, userId: String) -> [Opinion]? {
        guard catalog.radar(id: radarId, visibleTo: userId) != nil else { return nil }
        return catalog.opinions(radarId: radarId)
    }

    /// The trend of a radar's last `days` days; `nil` if the user may not see a radar with this id.
    func trend(radarId: String, days: Int, userId: String) -> Trend? {
        guard let radar = catalog.radar(id: radarId, visibleTo: userId) else { return nil }
        return TrendCalculator().trend(radarId: radarId, opinions: radar.opinions, days: days, now: clock())
    }

    /// Interprets a topic without creating a radar.
    func interpret(topic: String) -> Interpretation {
        catalog.interpret(topic: topic)
    }
}
