import Foundation
import RadarCore
import Testing

@Suite("Radar live updates: the tagged message and the merge")
struct RadarUpdateTests {
    private let date = Date(timeIntervalSince1970: 1_700_000_000)

    private func opinion(_ id: String, radar: String = "r_1", stance: Position = .for) -> Opinion {
        Opinion(id: id, radarId: radar, author: "A", model: "m", content: "c", stance: stance, confidence: 0.5, createdAt: date)
    }

    private func radar(opinions: [Opinion] = [], position: Position = .neutral) -> Radar {
        Radar(
            id: "r_1", userId: "u", topic: "t", interpretation: Interpretation(text: "t", category: "c"), position: position,
            opinions: opinions, lastPolledAt: date, createdAt: date, updatedAt: date
        )
    }

    @Test func everyUpdateRoundTripsThroughItsTaggedJSON() throws {
        let updates: [RadarUpdate] = [
            .newOpinion(opinion("o_1")),
            .positionChange(radarId: "r_1", position: .against),
            .refresh(radar(opinions: [opinion("o_1")])),
        ]
        for update in updates {
            let data = try RadarUpdateMessage.encode(update)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["type"] as? String == update.type)
            #expect(object["radarId"] as? String == "r_1")
            #expect(object["data"] != nil)
            #expect(try RadarUpdateMessage.decode(from: data) == .update(update))
        }
    }

    @Test func anUnknownTypeDecodesAsUnknownInsteadOfFailing() throws {
        let data = Data(#"{"type":"reaction","radarId":"r_1","data":{"emoji":"👍"}}"#.utf8)
        #expect(try RadarUpdateMessage.decode(from: data) == .unknown(type: "reaction", radarId: "r_1"))
    }

    @Test func decodingIsStrict() {
        let malformed = [
            #"{"radarId":"r_1","data":{"position":"for"}}"#,
            #"{"type":"positionChange","data":{"position":"for"}}"#,
            #"{"type":"positionChange","radarId":"r_1"}"#,
            #"{"type":"positionChange","radarId":"r_1","data":{"position":"sideways"}}"#,
            #"{"type":"newOpinion","radarId":"r_2","data":{"id":"o","radarId":"r_1","author":"a","model":"m","content":"c","stance":"for","confidence":1,"createdAt":"2026-01-01T00:00:00Z"}}"#,
        ]
        for text in malformed {
            #expect(throws: DecodingError.self, "\(text)") { try RadarUpdateMessage.decode(from: Data(text.utf8)) }
        }
    }

    @Test func applyingUpdatesMergesIntoTheRadar() {
        var current = radar(opinions: [opinion("o_1")])
        let added = current.apply(.newOpinion(opinion("o_2", stance: .against)))
        #expect(added)
        #expect(current.opinions.map(\.id) == ["o_1", "o_2"])
        let addedAgain = current.apply(.newOpinion(opinion("o_2", stance: .against)))
        #expect(!addedAgain, "the same opinion twice changes nothing")
        let moved = current.apply(.positionChange(radarId: "r_1", position: .against))
        #expect(moved)
        #expect(current.position == .against)
        let foreign = current.apply(.positionChange(radarId: "r_9", position: .for))
        #expect(!foreign, "another radar's update is ignored")
        var refreshed = radar(opinions: [opinion("o_1"), opinion("o_2"), opinion("o_3")], position: .for)
        refreshed.refreshCount = 2
        let replaced = current.apply(.refresh(refreshed))
        #expect(replaced)
        #expect(current == refreshed)
    }
}
