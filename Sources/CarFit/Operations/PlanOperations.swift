import CarFitCore

extension Core {
    /// The order to drive a day's open visits in, with arrival and departure times.
    func planVisits(_ request: Fields) throws(CarFitError) -> JSON {
        let plan = try PlanRequest(request)
        let visits = try visitsOn(plan.date, employeeId: plan.employeeId)
        return try DayPlan(request: plan, visits: visits, clock: clock).json
    }
}
