import CarFitCore
import Foundation

/// The one routine every exported operation goes through: find the core, parse the request
/// with jansson, run the operation under the core's lock, encode the result or map the error
/// to a status and an error document.
enum Boundary {
    typealias ResponseOut = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

    static func call(_ method: String, _ handle: OpaquePointer?, _ request: UnsafePointer<CChar>?,
                     _ response: ResponseOut?) -> Int32 {
        response?.pointee = nil
        let result: Result<JSON, CarFitError>
        do throws(CarFitError) {
            guard let operation = Operations.table[method] else {
                throw CarFitError(.misuse, "There is no operation named \"\(method.prefix(80))\".", field: "method")
            }
            guard let core = Handles.shared.core(handle) else {
                throw CarFitError(.misuse, handle == nil ? "The core is NULL." : "The core is closed or not a core.")
            }
            let fields = try parseRequest(request, limit: core.config.maxRequestBytes)
            if Operations.lockingThemselves.contains(method) {
                // A refresh waits for the network unlocked and locks the core for its write only.
                result = .success(try operation(core, fields))
            } else {
                result = .success(try core.serialized { () throws(CarFitError) in try operation(core, fields) })
            }
        } catch {
            result = .failure(error)
        }
        return finish(result, response)
    }

    /// A request as an object: `NULL` or `""` is `{}`; anything but an object is `bad_json`.
    static func parseRequest(_ request: UnsafePointer<CChar>?, limit: Int) throws(CarFitError) -> Fields {
        guard let request else { return Fields(JSONObject()) }
        let length = strlen(request)
        if length == 0 { return Fields(JSONObject()) }
        guard length <= limit else {
            throw CarFitError(.invalid, "The request is \(length) bytes, more than the limit of \(limit).")
        }
        let value = try JanssonParser.parse(request, length: length)
        guard case .object(let object) = value else {
            throw CarFitError(.badJSON, "The request must be a JSON object.",
                              extra: JSONObject(["line": 1, "column": 1, "position": 0]))
        }
        return Fields(object)
    }

    /// Writes the result or the error document to `*response` and returns the status.
    static func finish(_ result: Result<JSON, CarFitError>, _ response: ResponseOut?) -> Int32 {
        switch result {
        case .success(let value):
            response?.pointee = cString(value.encoded())
            return Status.ok.rawValue
        case .failure(let error):
            response?.pointee = cString(error.document.encoded())
            return error.status.rawValue
        }
    }

    /// A `malloc`ed copy of `text`, freed by the host with `carfit_free`.
    static func cString(_ text: String) -> UnsafeMutablePointer<CChar>? {
        text.withCString { strdup($0) }
    }
}
