import CarFitCore

/// An operation: the core (locked, except for `Operations.concurrent`) and the request object in,
/// the result out.
typealias Operation = @Sendable (Core, Fields) throws(CarFitError) -> JSON

/// Every operation by method name. Named exports and `carfit_call` both dispatch through this
/// table, so the two can never disagree.
enum Operations {
    static let table: [String: Operation] = {
        var table: [String: Operation] = [:]
        for area in [visitOperations, calendarOperations, carouselOperations] {
            for (name, op) in area { table[name] = op }
        }
        return table
    }()

    /// Operations that run without the core's lock (`Core.concurrent`): they guard their own
    /// state and may block, so other calls on the core go on meanwhile.
    static let concurrent: [String: Operation] = Dictionary(imageOperations, uniquingKeysWith: { first, _ in first })

    /// Methods whose request may also be a bare JSON array, read as `{member: [...]}`.
    static let arrayRequests: [String: String] = arrayRequestMembers
}
