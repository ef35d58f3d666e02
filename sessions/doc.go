// Package sessions manages sessions (SPEC 2.2, 4.1-4.3, 4.5, 4.7, 4.15): a
// running conversation of an agent in an environment, and the files,
// repositories and memory stores mounted into it.
//
//	sess, err := client.Sessions.Create(ctx, sessions.CreateParams{
//		Agent:         agents.AgentID(agent.ID), // or agent.Reference(), or sessions.AgentWithOverrides{…}
//		EnvironmentID: env.ID,
//		Title:         "Order #1234 inquiry",
//		Resources: []sessions.ResourceParam{
//			sessions.RepositoryResourceParam{
//				URL:                "https://github.com/example-org/example-repo",
//				AuthorizationToken: sessions.Secret(token), // prints as [redacted]
//				Checkout:           sessions.BranchCheckout{Name: "main"},
//			},
//			sessions.MemoryStoreResourceParam{MemoryStoreID: store.ID},
//		},
//		Budget:        &sessions.Budget{MaxListCost: money.USD(2500)},
//		InitialEvents: []sessions.EventParam{sessions.UserMessage("Where is order #1234?")},
//	})
//
//	// Updates follow SPEC 4.15: param.Null removes the budget or clears
//	// the title; a nil metadata value deletes its key.
//	sess, err = client.Sessions.Update(ctx, sess.ID, sessions.UpdateParams{
//		Budget:   param.Value(sessions.Limit(money.USD(5000))),
//		Metadata: map[string]*string{"ticket": new("T-42"), "stale": nil},
//	})
//
//	for s, err := range client.Sessions.All(ctx, sessions.ListParams{
//		Statuses: []sessions.Status{sessions.StatusIdle}}) { … }
//
//	file, err := client.Sessions.Resources.Add(ctx, sess.ID, sessions.FileResourceParam{FileID: "file_…"})
//
// Unions (Resource, Checkout, EventParam, ContentBlockParam, RubricParam,
// Multiagent, RosterMember, Delegation) are sealed interfaces: switch on
// the concrete type. Each has an Unknown variant that keeps the JSON of a
// type newer than this SDK, so nothing is dropped and it marshals back
// unchanged. Enum-like string types (Status, Access, OutcomeResult) keep
// unknown values.
//
// A session's Agent is a snapshot taken at creation: the agent's fields
// (agents types) plus its multi-agent configuration, whose rosters hold the
// full definitions (ThreadAgent) of the agents the session can run.
//
// Requests are checked locally first: a parameter that breaks a documented
// limit returns an *apierror.ValidationError naming its wire path (for
// example "initial_events[1].content[0].text") and nothing is sent. Rules
// that need the server's state come back as *apierror.Error: 409 for a
// session that is archived, terminated or running, 400 for the SPEC 4.15
// budget rules, whose reason (budget_create_only, budget_not_raised,
// model_not_budgetable) leads the message after the field name.
//
// Every call sends the vendor-beta value these endpoints require (Beta).
package sessions
