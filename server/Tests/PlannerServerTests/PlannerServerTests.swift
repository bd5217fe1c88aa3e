import XCTest
@testable import PlannerServer
