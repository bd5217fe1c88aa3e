import XCTest
@testable import CarFitCore

final class VisitTransitionTests: XCTestCase {
    let allowed: Set<String> = ["Todo>InProgress", "InProgress>Done", "Todo>Rejected", "InProgress>Rejected",
                                "InProgress>Todo"]

    func testEveryPairOfStates() {
        for from in VisitState.allCases {
            for to in VisitState.allCases {
                let expected = allowed.contains("\(from.rawValue)>\(to.rawValue)")
                XCTAssertEqual(VisitTransition.allows(from: from, to: to), expected, "\(from) -> \(to)")
                do {
                    try VisitTransition.check(from: from.rawValue, to: to)
                    XCTAssertTrue(expected, "\(from) -> \(to) passed")
                } catch {
                    XCTAssertFalse(expected, "\(from) -> \(to) refused")
                    XCTAssertEqual(error.status, .conflict)
                    XCTAssertEqual(error.field, "state")
                    XCTAssertEqual(error.message, "A visit in state \(from.rawValue) cannot become \(to.rawValue).")
                }
            }
        }
    }

    func testSourceSpellingsCountAsTheirState() throws {
        try VisitTransition.check(from: "ToDo", to: .inProgress)
        try VisitTransition.check(from: "in progress", to: .done)
        XCTAssertThrowsError(try VisitTransition.check(from: "DONE", to: .inProgress)) { error in
            XCTAssertEqual((error as? CarFitError)?.message, "A visit in state Done cannot become InProgress.")
        }
    }

    func testUnknownOrMissingStatesAllowNothing() {
        for target in VisitState.allCases {
            XCTAssertFalse(VisitTransition.allows(from: nil, to: target))
            XCTAssertThrowsError(try VisitTransition.check(from: "Cancelled", to: target)) { error in
                XCTAssertEqual((error as? CarFitError)?.message, "A visit in state Cancelled cannot become \(target.rawValue).")
            }
            XCTAssertThrowsError(try VisitTransition.check(from: nil, to: target)) { error in
                XCTAssertEqual((error as? CarFitError)?.message, "A visit without a state cannot become \(target.rawValue).")
            }
        }
    }

    func testRequestedStatesAreTheCanonicalNames() throws {
        for state in VisitState.allCases { XCTAssertEqual(try VisitTransition.requested(state.rawValue), state) }
        for text in ["todo", "ToDo", "In Progress", "", "Cancelled"] {
            XCTAssertThrowsError(try VisitTransition.requested(text)) { error in
                XCTAssertEqual((error as? CarFitError)?.status, .invalid)
                XCTAssertEqual((error as? CarFitError)?.field, "state")
            }
        }
    }

    /// A card's `nextStates`: exactly the targets the rules allow, in the states' order.
    func testNextStatesAreTheAllowedTargets() {
        for from in VisitState.allCases {
            let expected = VisitState.allCases.filter { allowed.contains("\(from.rawValue)>\($0.rawValue)") }
            XCTAssertEqual(VisitTransition.next(from: from), expected, "\(from)")
        }
        XCTAssertEqual(VisitTransition.next(from: .todo), [.inProgress, .rejected])
        XCTAssertEqual(VisitTransition.next(from: .inProgress), [.todo, .done, .rejected])
        XCTAssertEqual(VisitTransition.next(from: nil), [])
    }
}
