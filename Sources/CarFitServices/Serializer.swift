import CarFitCore

/// Runs work under the core's lock. A use-case that waits for the network (a refresh) takes
/// the lock itself, around its database work only.
public protocol Serializer {
    func locked<Result>(_ body: () throws(CarFitError) -> Result) throws(CarFitError) -> Result
}
