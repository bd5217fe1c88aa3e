// carfit-planner: serve, washer add, washer token.
