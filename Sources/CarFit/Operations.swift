import CarFitCore

/// An operation: the core (already locked) and the request in, the result out. Most take the
/// parsed request object; an operation that reads a large document as it goes takes its bytes.
enum Operation: Sendable {
    case parsed(@Sendable (Core, Fields) throws(CarFitError) -> JSON)
    case streamed(@Sendable (Core, UnsafeRawBufferPointer) throws(CarFitError) -> JSON)
    /// Runs without the core's lock and takes it itself around its database work (a refresh
    /// waits for the network without holding up the core's other calls).
    case selfLocking(@Sendable (Core, Fields) throws(CarFitError) -> JSON)
    /// Takes the parsed request and writes the result's JSON text itself (a large document
    /// written straight from stored rows).
    case written(@Sendable (Core, Fields) throws(CarFitError) -> JSONBuffer)
}

/// Every operation by method name. Named exports and `carfit_call` both dispatch through this
/// table, so the two can never disagree.
enum Operations {
    static let table: [String: Operation] = {
        var table: [String: Operation] = [:]
        for area in [visitOperations, calendarOperations, transactionOperations, shopOperations, articleOperations,
                     refreshOperations, carouselOperations, imageOperations, planOperations] {
            for (name, op) in area { table[name] = op }
        }
        return table
    }()
}
