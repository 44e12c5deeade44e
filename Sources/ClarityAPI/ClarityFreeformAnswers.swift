import ClarityOpenAPI
public import Courier
import Foundation
import OpenAPIRuntime

// What CLARITY's document leaves as a free-form object, read leniently: each field below is
// read when the service sends it with the expected type and is nil otherwise, and the whole
// object stays available as `raw`. The keys are the service's (snake_case).

/// One health metric batch's processing, `GET /api/v1/health-data/processing/{processing_id}`.
///
/// Keys read: `processing_id`, `status`, `progress`, `message`, `total_metrics`,
/// `processed_metrics`, `created_at`, `updated_at`.
public struct ClarityProcessingStatus: Sendable, Hashable, Decodable {
    /// `processing_id`.
    public var processingId: String?
    /// `status`, as the service wrote it.
    public var status: String?
    /// `progress`, from 0 to 1.
    public var progress: Double?
    /// `message`.
    public var message: String?
    /// `total_metrics`.
    public var totalMetrics: Int?
    /// `processed_metrics`.
    public var processedMetrics: Int?
    /// When processing started, as the service wrote it (the document gives no format).
    public var createdAt: String?
    /// When processing last moved, as the service wrote it.
    public var updatedAt: String?
    /// The object as it came.
    public var raw: JSONValue = .object([:])

    /// ``status`` as a ``ProcessingState``; ``ProcessingState/unknown(_:)`` when absent.
    public var state: ProcessingState { ProcessingState(rawValue: status ?? "") }

    enum CodingKeys: String, CodingKey {
        case processingId = "processing_id", status, progress, message
        case totalMetrics = "total_metrics", processedMetrics = "processed_metrics"
        case createdAt = "created_at", updatedAt = "updated_at"
    }

    /// Reads the object leniently: a field of another type than expected is left nil.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        processingId = try? container.decodeIfPresent(String.self, forKey: .processingId)
        status = try? container.decodeIfPresent(String.self, forKey: .status)
        progress = try? container.decodeIfPresent(Double.self, forKey: .progress)
        message = try? container.decodeIfPresent(String.self, forKey: .message)
        totalMetrics = try? container.decodeIfPresent(Int.self, forKey: .totalMetrics)
        processedMetrics = try? container.decodeIfPresent(Int.self, forKey: .processedMetrics)
        createdAt = try? container.decodeIfPresent(String.self, forKey: .createdAt)
        updatedAt = try? container.decodeIfPresent(String.self, forKey: .updatedAt)
        raw = (try? JSONValue(from: decoder)) ?? .object([:])
    }
}

/// A HealthKit upload's processing, `GET /api/v1/healthkit/status/{upload_id}`.
///
/// Keys read: `upload_id`, `status`, `progress`, `message`, `samples_processed`,
/// `samples_total`, `updated_at`.
public struct ClarityUploadStatus: Sendable, Hashable, Decodable {
    /// `upload_id`.
    public var uploadId: String?
    /// `status`, as the service wrote it.
    public var status: String?
    /// `progress`, from 0 to 1.
    public var progress: Double?
    /// `message`.
    public var message: String?
    /// `samples_processed`.
    public var samplesProcessed: Int?
    /// `samples_total`.
    public var samplesTotal: Int?
    /// When the upload last moved, as the service wrote it.
    public var updatedAt: String?
    /// The object as it came.
    public var raw: JSONValue = .object([:])

    /// ``status`` as a ``ProcessingState``.
    public var state: ProcessingState { ProcessingState(rawValue: status ?? "") }

    enum CodingKeys: String, CodingKey {
        case uploadId = "upload_id", status, progress, message
        case samplesProcessed = "samples_processed", samplesTotal = "samples_total", updatedAt = "updated_at"
    }

    /// Reads the object leniently: a field of another type than expected is left nil.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uploadId = try? container.decodeIfPresent(String.self, forKey: .uploadId)
        status = try? container.decodeIfPresent(String.self, forKey: .status)
        progress = try? container.decodeIfPresent(Double.self, forKey: .progress)
        message = try? container.decodeIfPresent(String.self, forKey: .message)
        samplesProcessed = try? container.decodeIfPresent(Int.self, forKey: .samplesProcessed)
        samplesTotal = try? container.decodeIfPresent(Int.self, forKey: .samplesTotal)
        updatedAt = try? container.decodeIfPresent(String.self, forKey: .updatedAt)
        raw = (try? JSONValue(from: decoder)) ?? .object([:])
    }
}

/// A page of a user's insight history: the `data` of `GET /api/v1/insights/history/{user_id}`.
///
/// Keys read: `insights` (each with `id`, `narrative`, `key_insights`, `recommendations`,
/// `confidence_score`, `generated_at`), `total_count`, `has_more`, and `pagination`'s `limit`
/// and `offset`.
public struct ClarityInsightHistory: Sendable, Hashable, Decodable {
    /// One insight of the history.
    public struct Entry: Sendable, Hashable, Decodable {
        /// `id` (or `insight_id`).
        public var id: String?
        /// `narrative`.
        public var narrative: String?
        /// `key_insights`.
        public var keyInsights: [String]?
        /// `recommendations`.
        public var recommendations: [String]?
        /// `confidence_score`.
        public var confidenceScore: Double?
        /// When it was written, as the service wrote it.
        public var generatedAt: String?

        enum CodingKeys: String, CodingKey {
            case id, insightId = "insight_id", narrative, keyInsights = "key_insights", recommendations
            case confidenceScore = "confidence_score", generatedAt = "generated_at"
        }

        /// Reads the object leniently: a field of another type than expected is left nil.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = (try? container.decodeIfPresent(String.self, forKey: .id)) ?? (try? container.decodeIfPresent(String.self, forKey: .insightId))
            narrative = try? container.decodeIfPresent(String.self, forKey: .narrative)
            keyInsights = try? container.decodeIfPresent([String].self, forKey: .keyInsights)
            recommendations = try? container.decodeIfPresent([String].self, forKey: .recommendations)
            confidenceScore = try? container.decodeIfPresent(Double.self, forKey: .confidenceScore)
            generatedAt = try? container.decodeIfPresent(String.self, forKey: .generatedAt)
        }
    }

    private struct Paging: Decodable {
        var limit: Int?
        var offset: Int?
    }

    /// `insights`, newest first; empty when absent.
    public var insights: [Entry]
    /// `total_count`.
    public var totalCount: Int?
    /// `has_more`.
    public var hasMore: Bool?
    /// `pagination.limit`.
    public var limit: Int?
    /// `pagination.offset`.
    public var offset: Int?
    /// The `data` object as it came.
    public var raw: JSONValue = .object([:])

    enum CodingKeys: String, CodingKey {
        case insights, totalCount = "total_count", hasMore = "has_more", pagination
    }

    /// Reads the object leniently: a field of another type than expected is left nil.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        insights = (try? container.decodeIfPresent([Entry].self, forKey: .insights)) ?? []
        totalCount = try? container.decodeIfPresent(Int.self, forKey: .totalCount)
        hasMore = try? container.decodeIfPresent(Bool.self, forKey: .hasMore)
        let paging = try? container.decodeIfPresent(Paging.self, forKey: .pagination)
        limit = paging?.limit
        offset = paging?.offset
        raw = (try? JSONValue(from: decoder)) ?? .object([:])
    }
}

/// The insights service's status: the `data` of `GET /api/v1/insights/status`.
///
/// Keys read: `service`, `status`, `model`, `timestamp`.
public struct ClarityServiceStatus: Sendable, Hashable, Decodable {
    /// `service`.
    public var service: String?
    /// `status`, as the service wrote it.
    public var status: String?
    /// `model`.
    public var model: String?
    /// When the status was taken, as the service wrote it.
    public var timestamp: String?
    /// The `data` object as it came.
    public var raw: JSONValue = .object([:])

    enum CodingKeys: String, CodingKey { case service, status, model, timestamp }

    /// Reads the object leniently: a field of another type than expected is left nil.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        service = try? container.decodeIfPresent(String.self, forKey: .service)
        status = try? container.decodeIfPresent(String.self, forKey: .status)
        model = try? container.decodeIfPresent(String.self, forKey: .model)
        timestamp = try? container.decodeIfPresent(String.self, forKey: .timestamp)
        raw = (try? JSONValue(from: decoder)) ?? .object([:])
    }
}

/// Reads a free-form object of the document as one of the lenient types above.
enum ClarityFreeform {
    static func decode<Value: Decodable>(_ type: Value.Type, from object: OpenAPIObjectContainer, operation: String) throws -> Value {
        do {
            let data = try JSONEncoder().encode(object)
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw CourierError(code: .decodingFailed, message: "\(operation): the answer did not read as \(Value.self): \(error)")
        }
    }
}
