import CourierWebSocket
@testable import CourierCLI
import Testing

@Suite("The Autobahn driver's permessage-deflate offers")
struct AutobahnOfferTests {
    @Test func aCompressionCaseGetsTheOfferItsDescriptionAsksFor() {
        let noTakeover = "Send 1000 compressed messages each of payload size 16, auto-fragment to 0 octets. Use permessage-deflate client offers (requestNoContextTakeover, requestMaxWindowBits): [(True, 9)]"
        #expect(AutobahnSession.compression(forCase: noTakeover) == WebSocketCompression(maxWindowBits: 9, noContextTakeover: true))
        let defaults = "Use permessage-deflate client offers (requestNoContextTakeover, requestMaxWindowBits): [(False, 0)]"
        #expect(AutobahnSession.compression(forCase: defaults) == .perMessageDeflate)
        let several = "Use permessage-deflate client offers (requestNoContextTakeover, requestMaxWindowBits): [(True, 9), (True, 0), (False, 0)]"
        #expect(AutobahnSession.compression(forCase: several) == WebSocketCompression(maxWindowBits: 9, noContextTakeover: true), "the first offer")
        #expect(AutobahnSession.compression(forCase: "Send a text message with payload 0.") == .perMessageDeflate)
    }
}
