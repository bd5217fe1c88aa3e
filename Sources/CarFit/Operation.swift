import CarFitCore
import CarFitIO

/// One operation of the library: its method name, its C symbol, how it holds the core's lock,
/// and the code that runs it. `Manifest.operations` lists them all; what its request takes is
/// the schema's (`request`, `RequestCheck`).
struct Operation: Sendable {
    /// How a call holds the core's lock.
    enum Locking: Sendable {
        /// The request is parsed, then the body runs holding the core's lock.
        case serialized
        /// The body runs without the core's lock and takes it itself around its database work
        /// (a refresh waits for the network without holding up the core's other calls; the
        /// image pipeline has its own lock).
        case selfLocking
        /// The body reads the request's bytes as it goes, holding the core's lock (a large
        /// document is never parsed whole).
        case streamed
    }

    /// What a call hands back.
    enum Output: Sendable {
        /// A JSON object the boundary encodes.
        case object
        /// JSON text the body writes itself (a large document written straight from stored rows).
        case written
        /// Bytes and a JSON object (the one export with a binary out-parameter).
        case binary
    }

    /// The check of a request object's members against the operation's schema (`RequestCheck`).
    typealias Check = (Fields) throws(CarFitError) -> Void

    /// The code of an operation, by what it takes and gives.
    enum Body: Sendable {
        case object(@Sendable (Core, Fields) throws(CarFitError) -> JSON)
        /// The request's bytes, and the boundary's check of a request object's members
        /// (`RequestCheck`) for the body to run on what it reads of them (all but a member it
        /// reads as a stream).
        case bytes(@Sendable (Core, UnsafeRawBufferPointer, Check) throws(CarFitError) -> JSON)
        case written(@Sendable (Core, Fields) throws(CarFitError) -> JSONBuffer)
        case binary(@Sendable (Core, Fields) throws(CarFitError) -> (bytes: [UInt8], response: JSON))
    }

    /// `"area.verb"`, the name `carfit_call` takes; nil for an operation `carfit_call` cannot
    /// reach (its output is not a JSON text).
    let method: String?
    /// The exported C function.
    let symbol: String
    let locking: Locking
    let body: Body

    init(_ method: String?, _ symbol: String, _ locking: Locking, _ body: Body) {
        self.method = method
        self.symbol = symbol
        self.locking = locking
        self.body = body
    }

    /// The schema's name of the operation: its method name (`images.data` for the one without).
    var schemaName: String {
        if let method { return method }
        let name = symbol.dropFirst("carfit_".count)
        guard let underscore = name.firstIndex(of: "_") else { return String(name) }
        return name[..<underscore] + "." + name[name.index(after: underscore)...]
    }

    /// The request's members, as a reader's summary generated from the schema (`?` marks an
    /// optional member: `"date, employeeId?, start{latitude, longitude}?"`); nil for an
    /// operation the schema does not describe.
    var request: String? { RequestDescriptions.text[schemaName] }

    var output: Output {
        switch body {
        case .object, .bytes: .object
        case .written: .written
        case .binary: .binary
        }
    }

    /// Whether the locking and the body fit together: a streamed operation reads bytes and
    /// only a streamed one does; bytes out only without the core's lock.
    var isWellFormed: Bool {
        switch (locking, body) {
        case (.streamed, .bytes), (.serialized, .object), (.serialized, .written), (.selfLocking, .object),
             (.selfLocking, .binary): true
        default: false
        }
    }
}
