import CarFitCore
import CarFitIO
#if canImport(Glibc)
import Glibc
#endif

/// The one routine every exported operation goes through: find the operation and the core,
/// parse the request with jansson, run the operation as its manifest entry says (holding the
/// core's lock or not), encode the result or map the error to a status and an error document.
enum Boundary {
    typealias ResponseOut = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

    /// A named export: `function` is the exported function's `#function`
    /// (`carfit_cart_add(_:_:_:)`), so an export line names its operation only by being declared.
    static func export(_ handle: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: ResponseOut?,
                       function: StaticString = #function) -> Int32 {
        let name = function.withUTF8Buffer { String(decoding: $0.prefix { $0 != UInt8(ascii: "(") }, as: UTF8.self) }
        return run(Manifest.bySymbol[name], name, handle, request, response)
    }

    /// `carfit_call`: the operation by its method name.
    static func call(_ method: String, _ handle: OpaquePointer?, _ request: UnsafePointer<CChar>?,
                     _ response: ResponseOut?) -> Int32 {
        run(Manifest.table[method], method, handle, request, response)
    }

    private static func run(_ found: Operation?, _ method: String, _ handle: OpaquePointer?,
                            _ request: UnsafePointer<CChar>?, _ response: ResponseOut?) -> Int32 {
        response?.pointee = nil
        let result: Result<JSON, CarFitError>
        do throws(CarFitError) {
            guard let operation = found else {
                throw CarFitError(.misuse, "There is no operation named \"\(method.prefix(80))\".", field: "method")
            }
            let core = try open(handle)
            let bytes = try requestBytes(request, limit: core.config.maxRequestBytes)
            switch (operation.locking, operation.body) {
            case (.serialized, .object(let body)):
                let fields = try parse(bytes, operation: operation.symbol)
                result = .success(try core.serialized { () throws(CarFitError) in try body(core, fields) })
            case (.streamed, .bytes(let body)):
                let symbol = operation.symbol
                result = .success(try core.serialized { () throws(CarFitError) in
                    try body(core, bytes) { fields throws(CarFitError) in try RequestCheck.check(symbol, fields) }
                })
            case (.selfLocking, .object(let body)):
                result = .success(try body(core, try parse(bytes, operation: operation.symbol)))
            case (.serialized, .written(let body)):
                let fields = try parse(bytes, operation: operation.symbol)
                let text = try core.serialized { () throws(CarFitError) -> JSONBuffer in try body(core, fields) }
                response?.pointee = text.takeCString()
                return Status.ok.rawValue
            default:
                throw CarFitError(.internal, "The operation \(method) is declared with a locking its body does not have.")
            }
        } catch {
            result = .failure(error)
        }
        return finish(result, response)
    }

    /// The operation with a binary out-parameter: `*bytes` gets a `malloc`ed copy of the bytes
    /// (freed by the host with `carfit_free`), `*length` its size, the response the JSON object.
    /// Runs without the core's lock.
    static func binary(_ handle: OpaquePointer?, _ request: UnsafePointer<CChar>?,
                       _ bytes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, _ length: UnsafeMutablePointer<UInt>?,
                       _ response: ResponseOut?, function: StaticString = #function) -> Int32 {
        let symbol = function.withUTF8Buffer { String(decoding: $0.prefix { $0 != UInt8(ascii: "(") }, as: UTF8.self) }
        response?.pointee = nil
        bytes?.pointee = nil
        length?.pointee = 0
        let result: Result<JSON, CarFitError>
        do throws(CarFitError) {
            guard let operation = Manifest.bySymbol[symbol], operation.locking == .selfLocking,
                  case .binary(let body) = operation.body else {
                throw CarFitError(.internal, "\(symbol) is not declared as an operation with bytes out.")
            }
            let core = try open(handle)
            guard let bytes else { throw CarFitError(.misuse, "The bytes out-parameter is NULL.", field: "bytes") }
            guard let length else { throw CarFitError(.misuse, "The length out-parameter is NULL.", field: "length") }
            let loaded = try body(core, try parse(try requestBytes(request, limit: core.config.maxRequestBytes), operation: symbol))
            guard let copy = malloc(max(1, loaded.bytes.count))?.assumingMemoryBound(to: UInt8.self) else {
                throw CarFitError(.internal, "Out of memory for \(loaded.bytes.count) bytes.")
            }
            loaded.bytes.withUnsafeBufferPointer { source in
                if let base = source.baseAddress { copy.update(from: base, count: source.count) }
            }
            bytes.pointee = copy
            length.pointee = UInt(loaded.bytes.count)
            result = .success(loaded.response)
        } catch {
            result = .failure(error)
        }
        return finish(result, response)
    }

    /// The open core of `handle`; NULL, closed or made up is `misuse`.
    static func open(_ handle: OpaquePointer?) throws(CarFitError) -> Core {
        guard let core = Handles.shared.core(handle) else {
            throw CarFitError(.misuse, handle == nil ? "The core is NULL." : "The core is closed or not a core.")
        }
        try core.checkFiles()
        return core
    }

    /// The request's bytes (`NULL` is empty), refused past `limit`. Borrowed from the caller for
    /// the duration of the call.
    static func requestBytes(_ request: UnsafePointer<CChar>?, limit: Int) throws(CarFitError) -> UnsafeRawBufferPointer {
        guard let request else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let length = strlen(request)
        guard length <= limit else {
            throw CarFitError(.invalid, "The request is \(length) bytes, more than the limit of \(limit).")
        }
        return UnsafeRawBufferPointer(start: request, count: length)
    }

    /// A request as an object: empty is `{}`; anything but an object is `bad_json`. With the
    /// `operation`'s symbol, a member of a type its schema refuses is `invalid` (`RequestCheck`).
    static func parse(_ bytes: UnsafeRawBufferPointer, what: String = "request", operation: String? = nil) throws(CarFitError) -> Fields {
        let fields = try JanssonParser.object(bytes, what: what)
        if let operation { try RequestCheck.check(operation, fields) }
        return fields
    }

    /// Writes the result or the error document to `*response` and returns the status.
    static func finish(_ result: Result<JSON, CarFitError>, _ response: ResponseOut?) -> Int32 {
        switch result {
        case .success(let value):
            if let response { response.pointee = cString(value) }
            return Status.ok.rawValue
        case .failure(let error):
            if let response { response.pointee = cString(error.document) }
            return error.status.rawValue
        }
    }

    /// The encoded value as a `malloc`ed NUL-terminated string, freed by the host with
    /// `carfit_free` (NULL only if memory is exhausted).
    static func cString(_ value: JSON) -> UnsafeMutablePointer<CChar>? {
        var buffer = JSONBuffer()
        value.encode(into: &buffer)
        return buffer.takeCString()
    }
}
