// Package sessions manages sessions (docs/managed-agents-wire.md 6 and 7,
// docs/session-events-wire.md): a running conversation of an agent in an
// environment, the files, repositories and memory stores mounted into it,
// and its events.
//
//	sess, err := client.Sessions.Create(ctx, sessions.CreateParams{
//		Agent:         agents.AgentID(agent.ID), // or agent.Reference(), or sessions.AgentWithOverrides{…}
//		EnvironmentID: env.ID,
//		Title:         "Order #1234 inquiry",
//		Resources: []sessions.ResourceParam{
//			sessions.RepositoryResourceParam{
//				URL:                "https://github.com/example-org/example-repo",
//				AuthorizationToken: param.Secret(token), // prints as [redacted]
//				Checkout:           sessions.BranchCheckout{Name: "main"},
//			},
//			sessions.MemoryStoreResourceParam{MemoryStoreID: store.ID},
//		},
//		Budget:        &sessions.Budget{MaxListCost: money.USD(2500)},
//		InitialEvents: []sessions.EventParam{sessions.UserMessage("Where is order #1234?")},
//	})
//
//	// In an update, param.Null removes the budget or clears the title;
//	// a nil metadata value deletes its key.
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
// and on the events' side Event, ContentBlock, StopReason and the rest) are sealed interfaces: switch on
// the concrete type. Each has an Unknown variant that keeps the JSON of a
// type newer than this SDK, so nothing is dropped and it marshals back
// unchanged. Enum-like string types (Status, Access, OutcomeResult) keep
// unknown values.
//
// A session's Agent is a snapshot taken at creation: the agent's
// definition (agents.RosterAgent) plus its multi-agent configuration
// (agents.Multiagent), whose rosters hold the definitions (again
// agents.RosterAgent) of the agents the session can run.
//
// Requests are checked locally first: a parameter that breaks a documented
// limit returns an *apierror.ValidationError naming its wire path (for
// example "initial_events[1].content[0].text") and nothing is sent. Rules
// that need the server's state come back as *apierror.Error: 409 for a
// session that is archived, terminated or running, 400 for the budget
// rules; errors.Is tells those apart with ErrBudgetCreateOnly,
// ErrBudgetNotRaised and ErrModelNotBudgetable.
//
// Every call sends the vendor-beta value these endpoints require.
//
// # Events
//
// Events (docs/session-events-wire.md) have their own sub-service,
// client.Sessions.Events. A stream delivers what is recorded after it
// opened, so open it first, then send:
//
//	stream, err := client.Sessions.Events.Stream(ctx, sess.ID, sessions.StreamParams{
//		EventDeltas: []sessions.EventType{sessions.EventAgentMessage}, // previews: messages as they are written
//	})
//	if err != nil { … }
//	defer stream.Close()
//	_, err = client.Sessions.Events.Send(ctx, sess.ID, sessions.SendParams{
//		Events: []sessions.EventParam{sessions.UserMessage("Where is order #1234?")},
//	})
//	var previews sessions.Previews
//	for ev, err := range stream.Events() {
//		if err != nil {
//			return err // or log it and continue: an undecodable event does not end the stream
//		}
//		previews.Add(ev)
//		switch ev := ev.(type) {
//		case *sessions.EventDelta:
//			show(ev.EventID, previews.Text(ev.EventID)) // the text so far
//		case *sessions.AgentMessageEvent:
//			show(ev.ID, sessions.Text(ev.Content)) // the whole message replaces its preview
//		case *sessions.AgentCustomToolUseEvent:
//			answer(sessions.CustomToolResult(ev.ID, run(ev.Name, ev.Input)))
//		case *sessions.AgentToolUseEvent: // ev.ToolInput() decodes the input
//			if ev.EvaluatedPermission == sessions.PermissionAsk {
//				answer(sessions.Allow(ev.ID)) // or sessions.Deny(ev.ID, "why")
//			}
//		case *sessions.SessionStatusIdleEvent:
//			if _, ok := ev.StopReason.(sessions.StopEndTurn); ok {
//				return nil
//			}
//		}
//	}
//
// Package toolrunner answers custom tool calls for you, exactly once,
// across dropped connections and restarts.
//
// Every event the stream, List and Send give is a pointer to its type; all
// but the previews are PersistedEvent (the fields ID, ProcessedAt and
// ThreadID of the embedded EventMeta, also through Meta), and a type newer
// than this SDK arrives as *UnknownEvent with its JSON. Every event, and
// every response type, marshals with encoding/json to the JSON the API
// sent, members this SDK does not know included (their Extra field), and
// DecodeEvent reads an event back.
//
// Reconnection. A connection delivers only what is recorded after it
// opened; the platform has no resume cursor. So, by default, a stream whose
// connection drops reconnects by itself: it checks that the session still
// exists and is neither archived nor terminated, opens a new connection,
// lists the history since the last event it delivered and delivers what it
// missed, skipping what the new connection repeats. Persisted events arrive
// once each, in order; previews lost in a drop are not recovered. So that
// a drop before the first event loses nothing either, Stream first reads
// the newest event of the history: one List request per Stream call.
// Events ends without an error when the session is archived, terminated or
// deleted; StreamParams.NoReconnect turns reconnection off (a drop then
// ends Events with its error); StreamParams.ResumeAfter resumes a restarted
// consumer after the last event it had (PositionOf), history first. Close
// the stream, from any goroutine, to stop it; cancelling ctx ends Events
// with the context's error.
package sessions
