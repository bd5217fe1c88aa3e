// The planner's back end: store, API and commands.
