import Foundation
import Hummingbird
import NIOCore

/// `GET /openapi.yaml`: the OpenAPI 3.1 document of the three APIs this server implements
/// (`OpenAPI/openapi.yaml`, a resource of this target), for tools such as schemathesis and
/// swift-openapi-generator. It needs no token.
enum OpenAPIDocumentRoute {
    /// The document's bytes, read from the target's resources once.
    static let document: Data? = Bundle.module.url(forResource: "openapi", withExtension: "yaml").flatMap { try? Data(contentsOf: $0) }

    static func register(on router: Router<ReferenceRequestContext>) {
        router.get("openapi.yaml") { _, _ in
            guard let document else { throw APIError.notFound("the OpenAPI document is not bundled with this server") }
            return Response(
                status: .ok,
                headers: [.contentType: "application/yaml", .cacheControl: "public, max-age=300"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: document))
            )
        }
    }
}
