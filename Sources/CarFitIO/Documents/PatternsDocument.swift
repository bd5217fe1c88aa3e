import CarFitCore

/// The patterns document read into a `PatternImport`: the colourlovers array
/// (`patterns/random`), handed over as `{"patterns": [...]}`, or that object itself.
extension RecordImport where Record == Pattern {
    /// A document without a `patterns` array is `invalid` and changes nothing.
    public init(document f: Fields) throws(CarFitError) {
        guard let value = f.object["patterns"], case .array(let records) = value else {
            throw .invalid("patterns", "The document has no patterns array (send the colourlovers array or {\"patterns\": [...]}).")
        }
        self.init(records, decode: PatternsDocument.pattern)
    }

    /// The patterns of a `patterns.import` request's bytes: the colourlovers array itself, or an
    /// object with a `patterns` array (nothing at all reads as an object without one). Text
    /// that is not JSON, or JSON that is neither, is `bad_json`.
    public init(request bytes: UnsafeRawBufferPointer) throws(CarFitError) {
        var request = Fields(JSONObject())
        if let base = bytes.baseAddress, bytes.count > 0 {
            switch try JanssonParser.parse(base.assumingMemoryBound(to: CChar.self), length: bytes.count) {
            case .array(let records): request = Fields(JSONObject(["patterns": .array(records)]))
            case .object(let object): request = Fields(object)
            default:
                throw CarFitError(.badJSON, "The request must be the colourlovers array or a JSON object.",
                                  details: .init(position: .start))
            }
        }
        try self.init(document: request)
    }
}

public enum PatternsDocument {
    /// Validates one record (`patterns[index]`): `imageUrl` is required (http or https);
    /// `title` and `colors` (hex "RRGGBB", a leading "#" allowed) may be null or missing.
    public static func pattern(_ value: JSON, index: Int) -> Result<Pattern, Rejection> {
        RecordImport.decode(value, index: index, pattern)
    }

    static func pattern(_ f: Fields) throws(CarFitError) -> Pattern {
        let url = try f.requiredString("imageUrl")
        guard ImageRequest.isHTTPURL(url) else {
            throw .invalid("imageUrl", "imageUrl must be an absolute http or https URL.")
        }
        var colors: [String] = []
        for (i, text) in (try f.strings("colors") ?? []).enumerated() {
            guard let color = Pattern.hexColor(text) else {
                throw .invalid("colors[\(i)]", "colors[\(i)] must be a colour as six hex digits, such as \"3779B1\".")
            }
            colors.append(color)
        }
        let title = try f.string("title")?.trimmed
        return Pattern(imageUrl: url, title: title?.isEmpty == false ? title : nil, colors: colors)
    }

    /// Why a patterns source's answer is not a patterns document.
    public enum AnswerFailure: Error {
        /// Not JSON, or JSON that is neither an array nor an object: the reason
        /// (`empty`, `not_json`, `not_document`) and the message naming `shown`.
        case unusable(reason: String, message: String)
        /// An array or object the import refuses as a whole (no `patterns` array).
        case refused(CarFitError)
    }

    /// The patterns of one answer of the patterns source (`patterns.refresh`): the
    /// colourlovers array, or an object with a `patterns` array. `shown` names the source in
    /// messages.
    public static func answer(_ body: [UInt8], shown: String) -> Result<PatternImport, AnswerFailure> {
        let document: Fields
        switch JanssonParser.parse(bytes: body) {
        case .success(.array(let records)): document = Fields(JSONObject(["patterns": .array(records)]))
        case .success(.object(let object)): document = Fields(object)
        case .success:
            return .failure(.unusable(reason: "not_document", message: "\(shown) answered with JSON that is not a patterns document."))
        case .failure(let e):
            return .failure(.unusable(reason: body.isEmpty ? "empty" : "not_json",
                message: "\(shown) answered with text that is not JSON (line \(e.line), column \(e.column): \(e.text)) instead of a patterns document."))
        }
        do throws(CarFitError) {
            return .success(try PatternImport(document: document))
        } catch {
            return .failure(.refused(error))
        }
    }
}
