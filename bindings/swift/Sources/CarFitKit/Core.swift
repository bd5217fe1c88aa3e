import CCarFit
import Foundation

/// An open core of libcarfit: its database, clock, calendar, session and caches.
///
/// Every call runs the library's C function on a thread this package starts for it, never on the
/// caller's thread nor on the Swift concurrency pool, so a call that waits (a refresh on a slow
/// network, a database another process holds) blocks no task. Calls may run at once from any number
/// of tasks: the library orders them on its side. The core closes when the last reference to it
/// goes (a running call and an event stream keep it open).
public final class Core: Sendable {
    /// The library's handle; the library makes every function on it safe from any thread.
    nonisolated(unsafe) private let handle: OpaquePointer
    /// The answer of carfit_open: `{"version", "database"}`.
    public let openResponse: String

    /// Opens a core with the config (JSON object text; see carfit_open in carfit.h).
    ///
    /// Throws `.invalid` (a config member unknown or wrong, named in `field`), `.badJson` and
    /// `.storage` (the database cannot be opened or created). It runs on the calling thread: opening
    /// takes a few milliseconds.
    public init(configJSON: String) throws(CarFitError) {
        var core: OpaquePointer?
        var response: UnsafeMutablePointer<CChar>?
        let status = configJSON.withCString { carfit_open($0, &core, &response) }
        let text = Core.take(response)
        guard status == CARFIT_OK, let core else {
            if let core { carfit_close(core) }
            throw CarFitError(rawStatus: status, document: text)
        }
        handle = core
        openResponse = text
    }

    deinit {
        carfit_close(handle)
    }

    /// The library's version ("1.4.0").
    public static var libraryVersion: String { String(cString: carfit_version()) }

    /// The contract of the loaded library: the text of carfit.schema.json (carfit_schema()).
    public static var schemaText: String { String(cString: carfit_schema()) }

    /// Runs an operation by its method name ("visits.list") with a JSON request text; returns the
    /// response text, or throws the error document as a `CarFitError`.
    public func call(_ method: String, _ requestJSON: String) async throws(CarFitError) -> String {
        let result = await Core.offload { [self] in self.callNow(method, requestJSON) }
        return try result.get()
    }

    /// A typed call: the request encoded, the response decoded (members it does not know ignored).
    func perform<Request: Encodable, Response: Decodable>(_ method: String, _ request: Request)
        async throws(CarFitError) -> Response {
        let text = try Core.encode(request, method)
        let answer = try await call(method, text)
        return try Core.decode(Response.self, answer, method)
    }

    /// images.data: the image's bytes and its description, loaded (from memory, disk or the
    /// network) on a thread of the package's.
    public func imagesDataWithBytes(_ request: ImagesDataRequest) async throws(CarFitError)
        -> (response: ImagesDataResponse, bytes: Data) {
        let text = try Core.encode(request, "images.data")
        let result: Result<(String, Data), CarFitError> = await Core.offload { [self] in
            var bytes: UnsafeMutablePointer<UInt8>?
            var length = 0
            var response: UnsafeMutablePointer<CChar>?
            let status = text.withCString { carfit_images_data(handle, $0, &bytes, &length, &response) }
            let answer = Core.take(response)
            defer { carfit_free(bytes) }
            guard status == CARFIT_OK else { return .failure(CarFitError(rawStatus: status, document: answer)) }
            let data = bytes.map { Data(bytes: $0, count: length) } ?? Data()
            return .success((answer, data))
        }
        let (answer, data) = try result.get()
        return (try Core.decode(ImagesDataResponse.self, answer, "images.data"), data)
    }

    /// images.data (carfit_images_data): the image's description; `imagesDataWithBytes` gives
    /// its bytes too.
    public func imagesData(_ request: ImagesDataRequest) async throws(CarFitError) -> ImagesDataResponse {
        try await imagesDataWithBytes(request).response
    }

    /// visits.attachment_data: an attachment's original bytes (whatever the encryption) and
    /// their description, read on a thread of the package's.
    public func visitsAttachmentDataWithBytes(_ request: VisitsAttachmentDataRequest) async throws(CarFitError)
        -> (response: VisitsAttachmentDataResponse, bytes: Data) {
        let text = try Core.encode(request, "visits.attachment_data")
        let result: Result<(String, Data), CarFitError> = await Core.offload { [self] in
            var bytes: UnsafeMutablePointer<UInt8>?
            var length = 0
            var response: UnsafeMutablePointer<CChar>?
            let status = text.withCString { carfit_visits_attachment_data(handle, $0, &bytes, &length, &response) }
            let answer = Core.take(response)
            defer { carfit_free(bytes) }
            guard status == CARFIT_OK else { return .failure(CarFitError(rawStatus: status, document: answer)) }
            let data = bytes.map { Data(bytes: $0, count: length) } ?? Data()
            return .success((answer, data))
        }
        let (answer, data) = try result.get()
        return (try Core.decode(VisitsAttachmentDataResponse.self, answer, "visits.attachment_data"), data)
    }

    /// visits.attachment_data (carfit_visits_attachment_data): the attachment's description;
    /// `visitsAttachmentDataWithBytes` gives its bytes too.
    public func visitsAttachmentData(_ request: VisitsAttachmentDataRequest) async throws(CarFitError)
        -> VisitsAttachmentDataResponse {
        try await visitsAttachmentDataWithBytes(request).response
    }

    // MARK: - The change feed

    /// The core's events from now on (those already published are skipped), read with
    /// carfit_events_wait on a thread of the stream's own.
    ///
    /// With `areas`, only "changed" events naming one of them (or "all", another connection's
    /// commit) and "gap" events arrive; without, every event. A `kind == "gap"` event means
    /// events were lost: read every document again. Cancelling the task that iterates (or
    /// dropping the stream) ends it within a second. The stream ends with an error when the
    /// library refuses the wait. It keeps the core open while it runs.
    public func events(areas: [String]? = nil) -> AsyncThrowingStream<Event, Error> {
        let (stream, continuation) = AsyncThrowingStream<Event, Error>.makeStream(bufferingPolicy: .unbounded)
        let stop = StopFlag()
        continuation.onTermination = { _ in stop.set() }
        var after = 0
        do {
            after = try latestSeq()
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        let start = after
        let thread = Thread { [self] in
            self.pump(after: start, areas: areas.map(Set.init), continuation: continuation, stop: stop)
        }
        thread.start()
        return stream
    }

    /// How long one wait of an event stream lasts: a cancelled stream ends within it.
    static let eventWaitMs = 250

    /// The seq of the last event published so far (its events read without waiting).
    private func latestSeq() throws(CarFitError) -> Int {
        var after = 0
        while true {
            let answer: EventsWaitResponse = try Core.decode(
                EventsWaitResponse.self,
                try callNow("events.wait", "{\"after\": \(after), \"timeoutMs\": 0}").get(), "events.wait")
            if answer.events.isEmpty || answer.last == after { return answer.last }
            after = answer.last
        }
    }

    private func pump(after start: Int, areas: Set<String>?, continuation: AsyncThrowingStream<Event, Error>.Continuation,
                      stop: StopFlag) {
        var after = start
        while !stop.isSet {
            let request = "{\"after\": \(after), \"timeoutMs\": \(Core.eventWaitMs)}"
            let answer: EventsWaitResponse
            do {
                answer = try Core.decode(EventsWaitResponse.self, try callNow("events.wait", request).get(), "events.wait")
            } catch {
                continuation.finish(throwing: error)
                return
            }
            after = answer.last
            for event in answer.events where Core.passes(event, areas) {
                continuation.yield(event)
            }
        }
        continuation.finish()
    }

    static func passes(_ event: Event, _ areas: Set<String>?) -> Bool {
        guard let areas else { return true }
        if event.kind == "gap" { return true }
        guard event.kind == "changed", let named = event.areas else { return false }
        return named.contains("all") || !areas.isDisjoint(with: named)
    }

    // MARK: - The C calls

    /// carfit_call on the calling thread.
    private func callNow(_ method: String, _ request: String) -> Result<String, CarFitError> {
        var response: UnsafeMutablePointer<CChar>?
        let status = method.withCString { name in
            request.withCString { carfit_call(handle, name, $0, &response) }
        }
        let text = Core.take(response)
        return status == CARFIT_OK ? .success(text) : .failure(CarFitError(rawStatus: status, document: text))
    }

    /// A response text of the library, freed.
    static func take(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        defer { carfit_free(pointer) }
        return String(cString: pointer)
    }

    /// Runs `work` on a new thread of its own and returns its result to the awaiting task.
    static func offload<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.start()
        }
    }

    static func encode<Request: Encodable>(_ request: Request, _ method: String) throws(CarFitError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(request), as: UTF8.self)
        } catch {
            throw CarFitError(status: .invalid, message: "The request of \(method) cannot be written as JSON: \(error).")
        }
    }

    static func decode<Response: Decodable>(_ type: Response.Type, _ text: String, _ method: String)
        throws(CarFitError) -> Response {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw CarFitError(status: .internal,
                              message: "The response of \(method) does not match its schema: \(error).")
        }
    }
}

/// A flag one thread sets and another reads.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}
