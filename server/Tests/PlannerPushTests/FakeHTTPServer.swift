import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// A request as a fake service received it.
struct FakeRequest: Sendable {
    var method: String
    var uri: String
    var version: HTTPVersion
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    func headerCount(_ name: String) -> Int {
        headers.filter { $0.0.lowercased() == name.lowercased() }.count
    }

    var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// What a fake service does with a request.
enum FakeAnswer: Sendable {
    case respond(status: Int, headers: [(String, String)] = [], body: [UInt8] = [])
    /// Closes the connection without answering.
    case drop

    static func json(_ status: Int, _ text: String, headers: [(String, String)] = []) -> FakeAnswer {
        .respond(status: status, headers: [("content-type", "application/json")] + headers, body: Array(text.utf8))
    }
}

/// An HTTP server on 127.0.0.1 (any free port): HTTP/1.1 in plain text, or HTTP/2 over TLS
/// (ALPN `h2`), answering every request with `responder`.
final class FakeHTTPServer: Sendable {
    let channel: any Channel
    let port: Int

    private init(channel: any Channel) throws {
        self.channel = channel
        guard let port = channel.localAddress?.port else { throw TestFailure("the fake server has no port") }
        self.port = port
    }

    static func http1(responder: @escaping @Sendable (FakeRequest) -> FakeAnswer) async throws -> FakeHTTPServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(FakeRequestHandler(responder: responder, http2: false))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return try FakeHTTPServer(channel: channel)
    }

    static func http2(certificatePath: String, keyPath: String,
                      responder: @escaping @Sendable (FakeRequest) -> FakeAnswer) async throws -> FakeHTTPServer {
        let chain = try NIOSSLCertificate.fromPEMFile(certificatePath).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
        var tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                do {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
                return channel.configureHTTP2Pipeline(mode: .server) { stream in
                    stream.eventLoop.makeCompletedFuture {
                        try stream.pipeline.syncOperations.addHandler(HTTP2FramePayloadToHTTP1ServerCodec())
                        try stream.pipeline.syncOperations.addHandler(FakeRequestHandler(responder: responder, http2: true))
                    }
                }.map { _ in }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return try FakeHTTPServer(channel: channel)
    }

    func stop() async {
        try? await channel.close()
    }
}

private final class FakeRequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let responder: @Sendable (FakeRequest) -> FakeAnswer
    let http2: Bool
    var head: HTTPRequestHead?
    var body: [UInt8] = []

    init(responder: @escaping @Sendable (FakeRequest) -> FakeAnswer, http2: Bool) {
        self.responder = responder
        self.http2 = http2
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(var buffer):
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            let request = FakeRequest(method: head.method.rawValue, uri: head.uri, version: head.version,
                                      headers: head.headers.map { ($0.name, $0.value) }, body: body)
            switch responder(request) {
            case .drop:
                if http2, let parent = context.channel.parent {
                    parent.close(promise: nil)
                } else {
                    context.close(promise: nil)
                }
            case .respond(let status, let headers, let bytes):
                var responseHeaders = HTTPHeaders(headers)
                responseHeaders.replaceOrAdd(name: "content-length", value: "\(bytes.count)")
                let responseHead = HTTPResponseHead(version: head.version, status: HTTPResponseStatus(statusCode: status),
                                                    headers: responseHeaders)
                context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
                if !bytes.isEmpty {
                    context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes)))), promise: nil)
                }
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
            self.head = nil
            body = []
        }
    }
}
