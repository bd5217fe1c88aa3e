import CarFitCore

/// An operation: the core (already locked) and the request object in, the result out.
typealias Operation = @Sendable (Core, Fields) throws(CarFitError) -> JSON

/// Every operation by method name. Named exports and `carfit_call` both dispatch through this
/// table, so the two can never disagree.
enum Operations {
    static let table: [String: Operation] = {
        var table: [String: Operation] = [:]
        for area in [visitOperations, calendarOperations, planOperations] {
            for (name, op) in area { table[name] = op }
        }
        return table
    }()
}
