package toolrunner_test

import (
	"context"
	"errors"
	"log"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

// When the Runner stops following a session (here, Run's context ends)
// before an answer it had was recorded, Run's error lists the answer, and
// the application can send it itself, so that the tool need not run again.
func ExampleUnsentError() {
	var (
		client    *agentplatform.Client // agentplatform.NewClient(…)
		runner    *toolrunner.Runner    // toolrunner.New(client.Sessions, tools)
		ctx       context.Context       // ends when the service shuts down
		sessionID string
	)
	err := runner.Run(ctx, sessionID)
	var unsent *toolrunner.UnsentError
	if errors.As(err, &unsent) {
		for _, a := range unsent.Answers {
			_, err := client.Sessions.Events.Send(context.Background(), sessionID,
				sessions.SendParams{Events: []sessions.EventParam{a.Param()}})
			if err != nil {
				log.Printf("answer to %s not sent: %v", a.CallID, err)
			}
		}
		// unsent.Unanswered: calls whose tool was cancelled; the session's
		// next runner runs them again.
	}
}

// An application that shows its sessions' progress reads their events
// through the Runner that answers their calls: one stream per session.
func ExampleWithEventObserver() {
	var (
		client *agentplatform.Client // agentplatform.NewClient(…)
		tools  []tool.Tool
		feed   chan<- sessions.Event // drained by the application's UI
	)
	runner, err := toolrunner.New(client.Sessions, tools,
		toolrunner.WithEventObserver(func(sessionID string, ev sessions.Event) {
			if m, ok := ev.(*sessions.AgentMessageEvent); ok {
				log.Printf("%s: %s", sessionID, sessions.Text(m.Content))
			}
			select {
			case feed <- ev: // never block the session's reader
			default:
			}
		}))
	if err != nil {
		log.Fatal(err)
	}
	defer runner.Close(context.Background())
}
