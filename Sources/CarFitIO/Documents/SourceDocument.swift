import CarFitCore

/// An area's reader of its source's document (`VisitSnapshot.init(document:)`,
/// `CatalogImport.init(document:)`, ...): what a refresh hands `SourceDocument.read`.
public typealias DocumentDecoder<Value> = (Fields) throws(CarFitError) -> Value

/// A document a source answered, read from its downloaded body: parsed whole and handed to the
/// area's decoder, or the reason it is not that document.
public enum SourceDocument {
    /// Why a body is not the document.
    public enum Problem: Error {
        /// The downloaded body could not be read back.
        case unreadable(CarFitError)
        /// An HTML page (by its content type or its first character) that is not JSON.
        case html
        /// JSON that breaks off at the end of the body.
        case truncated(JanssonParser.SyntaxError)
        /// Text that is not JSON.
        case notJSON(JanssonParser.SyntaxError)
        /// JSON that is not an object.
        case notObject
        /// An object the decoder refused (its field, message and any rejected records).
        case refused(CarFitError)
    }

    /// The body of `file` (its `contentType` as the server declared it) read by `decode`.
    public static func read<Value>(_ file: FileReader, contentType: String?,
                                   _ decode: DocumentDecoder<Value>) -> Result<Value, Problem> {
        let parsed: Result<JSON, JanssonParser.SyntaxError>
        let html: Bool
        do throws(CarFitError) {
            parsed = try JanssonParser.parse(file: file)
            html = try looksLikeHTML(file, contentType: contentType)
        } catch {
            return .failure(.unreadable(error))
        }
        switch parsed {
        case .failure(let e):
            if html { return .failure(.html) }
            return .failure(e.position >= file.count ? .truncated(e) : .notJSON(e))
        case .success(let json):
            guard case .object(let object) = json else { return .failure(.notObject) }
            return decoded(object, decode)
        }
    }

    /// As `read(_:contentType:_:)`, the document first read straight from the body's bytes
    /// into only the members `picked` names (`PickedDocument`); where it cannot be read there,
    /// jansson's parse of the whole body decides, with the same answers and problems.
    public static func read<Value>(_ file: FileReader, contentType: String?, picked: PickedDocument?,
                                   _ decode: DocumentDecoder<Value>) -> Result<Value, Problem> {
        guard let picked, let object = picked.read(file: file) else { return read(file, contentType: contentType, decode) }
        return decoded(object, decode)
    }

    /// The document `object` read by `decode`, or its refusal.
    private static func decoded<Value>(_ object: JSONObject, _ decode: DocumentDecoder<Value>) -> Result<Value, Problem> {
        do throws(CarFitError) {
            return .success(try decode(Fields(object)))
        } catch {
            return .failure(.refused(error))
        }
    }

    /// An HTML content type, or a body whose first non-blank character opens a tag.
    static func looksLikeHTML(_ body: FileReader, contentType: String?) throws(CarFitError) -> Bool {
        if let type = contentType?.lowercased(), holds(type, "text/html") || holds(type, "xhtml") { return true }
        let first = try body.firstByte { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        return first == UInt8(ascii: "<")
    }

    /// Whether `text` holds `part` (bytes compared; the standard library's substring search
    /// would link the whole string-processing module in for this one use).
    static func holds(_ text: String, _ part: String) -> Bool {
        let t = Array(text.utf8), p = Array(part.utf8)
        guard !p.isEmpty, p.count <= t.count else { return p.isEmpty }
        for i in 0...(t.count - p.count) where t[i..<(i + p.count)].elementsEqual(p) { return true }
        return false
    }
}

extension JanssonParser.SyntaxError {
    /// Its place in the text, as an error document gives it.
    public var at: CarFitError.TextPosition { CarFitError.TextPosition(line: line, column: column, offset: position) }
}
