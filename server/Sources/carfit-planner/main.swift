// carfit-planner: serve, washer add, washer token.
import Foundation
import PlannerServer

exit(await PlannerCommand.main(Array(CommandLine.arguments.dropFirst())))
