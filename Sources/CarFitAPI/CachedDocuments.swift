import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore

extension DocumentCache {
    /// The document of `key` while the database is at `current`, from `build` when not cached;
    /// a built document is kept with its encoded text, so asking again costs a lookup and a
    /// copy of bytes.
    public func document(_ key: Key, at current: Database.ChangeStamp,
                         build: () throws(CarFitError) -> JSON) throws(CarFitError) -> JSON {
        try value(key, at: current) { () throws(CarFitError) -> JSON in try build().keepingEncoding() }
    }
}
