public import Courier
import Foundation
public import RadarCore

/// The Radar API's endpoints as typed requests.
///
/// Each function returns a `Request` value; send it with any `APIClient`
/// whose base URL is the server (as seed 000 gives it, `https://api.radar.app`: the paths
/// start with ``root``), or use ``RadarClient``, which does so for you.
///
/// Writes declare the collection they change (`RequestOptions.invalidates`), so a
/// client with an `HTTPCache` drops every cached page of the list after them.
public enum RadarEndpoints {
    /// The prefix every Radar path starts with, `/api`. ``RadarClient`` accepts a base URL
    /// with or without it (`APIRoot.serverURL(for:)`).
    public static let root = APIRoot("/api")

    /// The collection every radar belongs to, `/api/radars`: what a write invalidates in the cache.
    public static let collectionPath = "/api/radars"

    /// `GET /api/radars?limit&offset`: one page of the user's radars, newest first, as the
    /// bare JSON array the document defines. The server may send the total in `X-Total-Count`
    /// (see ``RadarClient/list(limit:offset:)``).
    /// - Parameters:
    ///   - limit: The page size, 1…100.
    ///   - offset: How many radars to skip.
    public static func list(limit: Int = 20, offset: Int = 0) -> Request<[Radar]> {
        Request(
            path: collectionPath,
            query: [URLQueryItem(name: "limit", value: "\(limit)"), URLQueryItem(name: "offset", value: "\(offset)")],
            name: "radar.list"
        )
    }

    /// `GET /api/radars/{id}`: one radar with its opinions.
    /// - Parameter id: The radar's id.
    public static func get(id: String) -> Request<Radar> {
        Request(path: radarPath(id), name: "radar.get")
    }

    /// `POST /api/radars`: starts tracking a topic.
    /// - Parameters:
    ///   - topic: The topic, 1…200 characters.
    ///   - isPublic: Whether other users may see the radar.
    public static func create(topic: String, isPublic: Bool? = nil) -> Request<Radar> {
        write(Request(
            method: .post,
            path: collectionPath,
            body: .json(CreateRadarRequest(topic: topic, isPublic: isPublic)),
            name: "radar.create"
        ))
    }

    /// `DELETE /api/radars/{id}`: stops tracking a topic. The answer's body (an empty JSON
    /// object, or nothing) is not read.
    /// - Parameter id: The radar's id.
    public static func delete(id: String) -> Request<Void> {
        write(Request(method: .delete, path: radarPath(id), name: "radar.delete"))
    }

    /// `POST /api/radars/{id}/refresh`: polls the models again and returns the updated radar.
    /// - Parameter id: The radar's id.
    public static func refresh(id: String) -> Request<Radar> {
        write(Request(method: .post, path: radarPath(id) + "/refresh", name: "radar.refresh"))
    }

    /// `GET /api/radars/{id}/opinions`: the radar's opinions, newest first.
    /// - Parameter id: The radar's id.
    public static func opinions(id: String) -> Request<[Opinion]> {
        Request(path: radarPath(id) + "/opinions", name: "radar.opinions")
    }

    /// `GET /api/radars/{id}/trends?days`: daily stance counts.
    /// - Parameters:
    ///   - id: The radar's id.
    ///   - days: How many days back, 1…90.
    public static func trends(id: String, days: Int = 7) -> Request<Trend> {
        Request(
            path: radarPath(id) + "/trends",
            query: [URLQueryItem(name: "days", value: "\(days)")],
            name: "radar.trends"
        )
    }

    /// `POST /api/interpret`: how the service reads a topic, before a radar is made.
    /// - Parameter topic: The topic.
    public static func interpret(topic: String) -> Request<Interpretation> {
        Request(method: .post, path: "/api/interpret", body: .json(InterpretRequest(topic: topic)), name: "radar.interpret")
    }

    private static func radarPath(_ id: String) -> String {
        collectionPath + "/" + RequestTarget.pathSegment(id)
    }

    /// A write to the collection: invalidates every cached variant of it (pages, radars,
    /// opinions and trends) once it succeeds.
    private static func write<Value>(_ request: Request<Value>) -> Request<Value> {
        var request = request
        request.options.invalidates = [collectionPath]
        return request
    }
}
