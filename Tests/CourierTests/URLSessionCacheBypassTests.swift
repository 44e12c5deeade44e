import Courier
@testable import CourierURLSession
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import Testing

/// Courier's cache is the HTTP cache; URLSession's own `URLCache` must never answer below it
/// (it is not kept apart per user, and would turn a revalidation into a stored 200).
@Suite("URLSession's own cache never answers for Courier")
struct URLSessionCacheBypassTests {
    @Test func everyRequestIgnoresLocallyCachedData() throws {
        let request = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/radars?page=2")
        let urlRequest = try URLSessionTransport.makeURLRequest(request)
        #expect(urlRequest.cachePolicy == .reloadIgnoringLocalCacheData)
        #expect(urlRequest.url?.absoluteString == "https://api.example.com/radars?page=2")
    }

    @Test func aSessionTheTransportMakesKeepsNoURLCacheAndTheCallersConfigurationIsUnchanged() {
        let configuration = URLSessionConfiguration.default
        let cache = URLCache(memoryCapacity: 1 << 20, diskCapacity: 0, diskPath: nil)
        configuration.urlCache = cache
        let transport = URLSessionTransport(configuration: configuration)
        defer { transport.session.invalidateAndCancel() }
        #expect(transport.session.configuration.urlCache == nil)
        #expect(transport.session.configuration.requestCachePolicy == .reloadIgnoringLocalCacheData)
        #expect(configuration.urlCache === cache)
        #expect(configuration.requestCachePolicy == .useProtocolCachePolicy)
    }
}
