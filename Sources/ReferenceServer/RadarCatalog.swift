import Foundation
import RadarCore

/// All radars the server knows, and the rules for changing them.
///
/// A plain value with no clock and no locking: every method that needs the time takes it
/// as a parameter, and ``RadarStore`` provides isolation.
struct RadarCatalog: Sendable {
    /// How many opinions a new radar starts with.
    static let initialOpinionCount = 3
    /// How many opinions each refresh adds.
    static let opinionsPerRefresh = 2

    private var radars: [String: Radar] = [:]
    private var nextRadarNumber = 1
    private var nextOpinionNumber = 1
    private let generator: SyntheticOpinionGenerator
    private let interpreter = TopicInterpreter()

    /// Creates an empty catalog whose synthetic content derives from `seed`.
    init(seed: UInt64) {
        self.generator = SyntheticOpinionGenerator(seed: seed)
    }

    /// One page of the radars a user may see, newest first; ties on `createdAt` go to the higher id.
    /// - Parameters:
    ///   - limit: The largest number of radars on the page.
    ///   - offset: How many radars to skip.
    ///   - userId: The user asking: they see their own radars and public ones.
    func page(limit: Int, offset: Int, visibleTo userId: String) -> RadarPage {
        let sorted = radars.values.filter { Self.isVisible($0, to: userId) }.sorted(by: Self.newestFirst)
        let items = offset < sorted.count ? Array(sorted.dropFirst(offset).prefix(limit)) : []
        return RadarPage(items: items, total: sorted.count, limit: limit, offset: offset)
    }

    /// The radar with this id, if any.
    func radar(id: String) -> Radar? {
        radars[id]
    }

    /// The radar with this id if the user may see it: it is theirs, or it is public.
    func radar(id: String, visibleTo userId: String) -> Radar? {
        radars[id].flatMap { Self.isVisible($0, to: userId) ? $0 : nil }
    }

    /// Whether a user may see a radar: it is theirs, or it is public.
    static func isVisible(_ radar: Radar, to userId: String) -> Bool {
        radar.isPublic || radar.userId == userId
    }

    /// Creates a radar with an interpretation and its first opinions.
    /// - Parameters:
    ///   - topic: The topic, already trimmed and validated.
    ///   - isPublic: Whether other users may see it.
    ///   - userId: The owner.
    ///   - now: The creation time.
    /// - Returns: The new radar.
    mutating func create(topic: String, isPublic: Bool, userId: String, now: Date) -> Radar {
        let id = "r_\(nextRadarNumber)"
        nextRadarNumber += 1
        let opinions = makeOpinions(radarId: id, topic: topic, round: 0, count: Self.initialOpinionCount, now: now)
        let radar = Radar(
            id: id,
            userId: userId,
            topic: topic,
            interpretation: interpreter.interpret(topic),
            position: StanceTally(opinions).position,
            opinions: opinions,
            lastPolledAt: now,
            refreshCount: 0,
            createdAt: now,
            updatedAt: now,
            isPublic: isPublic
        )
        radars[id] = radar
        return radar
    }

    /// Removes a radar.
    /// - Returns: Whether a radar with this id existed.
    mutating func delete(id: String) -> Bool {
        radars.removeValue(forKey: id) != nil
    }

    /// Polls the models again: adds opinions, recomputes the position, bumps the refresh count.
    /// - Returns: The updated radar, or `nil` if there is no radar with this id.
    mutating func refresh(id: String, now: Date) -> Radar? {
        guard var radar = radars[id] else { return nil }
        radar.refreshCount += 1
        let added = makeOpinions(
            radarId: id,
            topic: radar.topic,
            round: radar.refreshCount,
            count: Self.opinionsPerRefresh,
            now: now
        )
        radar.opinions.append(contentsOf: added)
        radar.position = StanceTally(radar.opinions).position
        radar.lastPolledAt = now
        radar.updatedAt = now
        radars[id] = radar
        return radar
    }

    /// A radar's opinions, newest first, or `nil` if there is no radar with this id.
    func opinions(radarId: String) -> [Opinion]? {
        radars[radarId]?.opinions.sorted { lhs, rhs in
            if lhs.createdAt != rhs.createdAt { return lhs.createdAt > rhs.createdAt }
            return Self.idOrder(rhs.id, lhs.id)
        }
    }

    /// Interprets a topic without creating a radar.
    func interpret(topic: String) -> Interpretation {
        interpreter.interpret(topic)
    }

    private mutating func makeOpinions(radarId: String, topic: String, round: Int, count: Int, now: Date) -> [Opinion] {
        let opinions = generator.opinions(
            radarId: radarId,
            topic: topic,
            round: round,
            count: count,
            firstNumber: nextOpinionNumber,
            createdAt: now
        )
        nextOpinionNumber += count
        return opinions
    }

    private static func newestFirst(_ lhs: Radar, _ rhs: Radar) -> Bool {
        if lhs.createdAt != rhs.createdAt { return lhs.createdAt > rhs.createdAt }
        return idOrder(rhs.id, lhs.id)
    }

    /// Orders generated ids (`r_2` before `r_10`) by length, then by characters.
    private static func idOrder(_ lhs: String, _ rhs: String) -> Bool {
        lhs.count != rhs.count ? lhs.count < rhs.count : lhs < rhs
    }
}
