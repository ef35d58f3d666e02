package deployments_test

import (
	"context"
	"fmt"
	"log"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// A deployment starts a session of an agent on a cron schedule, and by
// hand. The example uses platformtest, the in-process reference server,
// started on a Monday morning with a clock the example moves on; a program
// calls agentplatform.NewClient() instead.
func Example() {
	srv, err := platformtest.NewServer(platformtest.WithStartTime(time.Date(2026, 1, 5, 7, 30, 0, 0, time.UTC)))
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()

	env, agent := exampleAgent(client)
	dep, err := client.Deployments.Create(ctx, deployments.CreateParams{
		Name:          "Daily order report",
		Agent:         agents.AgentID(agent.ID),
		EnvironmentID: env.ID,
		InitialEvents: []sessions.EventParam{sessions.UserMessage("Summarize yesterday's orders.")},
		// Weekdays at 9:00, Berlin time; UpcomingRunsAt is in UTC.
		Schedule: &deployments.ScheduleParam{Expression: "0 9 * * 1-5", Timezone: "Europe/Berlin"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(dep.Name, dep.Status)
	for _, t := range dep.Schedule.UpcomingRunsAt[:2] {
		fmt.Println("next:", t.Format(time.RFC3339))
	}
	// Output:
	// Daily order report active
	// next: 2026-01-05T08:00:00Z
	// next: 2026-01-06T08:00:00Z
}

// RunNow starts a session now; the schedule goes on as before. Every run,
// by hand or scheduled, leaves a record with its session or its error.
func ExampleService_RunNow() {
	srv, client, done := exampleServer()
	defer done()
	ctx := context.Background()

	env, agent := exampleAgent(client)
	dep, err := client.Deployments.Create(ctx, deployments.CreateParams{
		Name: "Hourly check", Agent: agents.AgentID(agent.ID), EnvironmentID: env.ID,
		InitialEvents: []sessions.EventParam{sessions.UserMessage("Check the order queue.")},
		Schedule:      &deployments.ScheduleParam{Expression: "0 * * * *", Timezone: "UTC"},
	})
	if err != nil {
		log.Fatal(err)
	}
	run, err := client.Deployments.RunNow(ctx, dep.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("by hand, session created:", !run.Failed())

	srv.Advance(2 * time.Hour) // the test server's clock: the schedule fires twice

	// Newest first.
	for r, err := range client.Deployments.Runs.All(ctx, deployments.RunListParams{DeploymentID: dep.ID}) {
		if err != nil {
			log.Fatal(err)
		}
		switch t := r.TriggerContext.(type) {
		case deployments.ScheduleTrigger:
			fmt.Println("scheduled", t.ScheduledAt.Format("15:04"), "failed:", r.Failed())
		case deployments.ManualTrigger:
			fmt.Println("manual, failed:", r.Failed())
		}
	}
	// Output:
	// by hand, session created: true
	// scheduled 09:00 failed: false
	// scheduled 08:00 failed: false
	// manual, failed: false
}

// exampleAgent creates the environment and agent a deployment runs.
func exampleAgent(client *agentplatform.Client) (*environments.Environment, *agents.Agent) {
	ctx := context.Background()
	env, err := client.Environments.Create(ctx, environments.CreateParams{Name: "reports"})
	if err != nil {
		log.Fatal(err)
	}
	agent, err := client.Agents.Create(ctx, agents.CreateParams{Name: "Reporter", Model: agents.ModelID(models.VendorHaiku55)})
	if err != nil {
		log.Fatal(err)
	}
	return env, agent
}

// exampleServer starts a reference server and returns it with a client for
// it and a function that closes both, as Example does step by step. Its
// clock stands still at 2026-01-05 07:30 UTC until Advance moves it.
func exampleServer() (*platformtest.Server, *agentplatform.Client, func()) {
	srv, err := platformtest.NewServer(platformtest.WithStartTime(time.Date(2026, 1, 5, 7, 30, 0, 0, time.UTC)))
	if err != nil {
		log.Fatal(err)
	}
	client, err := srv.Client()
	if err != nil {
		srv.Close()
		log.Fatal(err)
	}
	return srv, client, func() {
		client.Close()
		srv.Close()
	}
}
