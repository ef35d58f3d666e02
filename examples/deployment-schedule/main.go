// Command deployment-schedule runs an agent on a cron schedule: it creates a
// deployment that fires every morning, shows its upcoming runs, runs it once
// by hand, lets time pass, and lists the runs, each with the session it
// started.
//
//	go run ./examples/deployment-schedule
//
// Without VENDOR_API_KEY it runs against the SDK's reference server, started
// in this process, whose clock it advances by two days so that the schedule
// fires twice. With VENDOR_API_KEY set it calls the API at VENDOR_BASE_URL,
// where time cannot be advanced: it runs the deployment by hand only, then
// archives it so that the schedule stops.
package main

import (
	"cmp"
	"context"
	"fmt"
	"log"
	"os"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/money"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/sessions"
)

func main() {
	log.SetFlags(0)
	if err := run(); err != nil {
		log.Fatal("deployment-schedule: ", err)
	}
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The target: the API when VENDOR_API_KEY is set, else the SDK's
	// reference server, started in this process.
	var (
		srv    *platformtest.Server // nil against the real API
		client *agentplatform.Client
		err    error
	)
	if os.Getenv("VENDOR_API_KEY") != "" {
		fmt.Println("Target: the API at", cmp.Or(os.Getenv("VENDOR_BASE_URL"), "https://api.vendor.com"))
		client, err = agentplatform.NewClient() // reads VENDOR_API_KEY, VENDOR_BASE_URL, VENDOR_WORKSPACE_ID
	} else {
		if srv, err = platformtest.NewServer(); err != nil {
			return err
		}
		defer srv.Close()
		fmt.Println("Target: the embedded reference server at", srv.URL(), "(set VENDOR_API_KEY to use the real API)")
		client, err = srv.Client() // its address, seeded key and workspace
	}
	if err != nil {
		return err
	}
	defer client.Close()
	now := time.Now // the platform's time: the embedded server's own clock, which it can move
	if srv != nil {
		now = srv.Now
	}

	environment, err := client.Environments.Create(ctx, environments.CreateParams{Name: "deployment-schedule"})
	if err != nil {
		return err
	}
	defer client.Environments.Archive(ctx, environment.ID) // best effort: tidies up the real API
	agent, err := client.Agents.Create(ctx, agents.CreateParams{
		Name:  "Morning digest",
		Model: agents.ModelID(models.VendorHaiku55),
	})
	if err != nil {
		return err
	}
	defer client.Agents.Archive(ctx, agent.ID)

	// Every day at 09:00, Berlin time, a run starts a session of the agent
	// with these initial events, under a budget of 0.50 USD.
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		return err
	}
	dep, err := client.Deployments.Create(ctx, deployments.CreateParams{
		Name:          "Morning digest",
		Agent:         agents.AgentID(agent.ID),
		EnvironmentID: environment.ID,
		InitialEvents: []sessions.EventParam{sessions.UserMessage("Write today's digest in one sentence.")},
		Budget:        new(sessions.Limit(money.USD(50))),
		Schedule:      &deployments.ScheduleParam{Expression: "0 9 * * *", Timezone: berlin.String()},
	})
	if err != nil {
		return err
	}
	// Archiving is what stops the schedule.
	defer func() {
		if _, err := client.Deployments.Archive(ctx, dep.ID); err != nil {
			log.Printf("deployment-schedule: archiving %s: %v; archive it by hand, or it keeps firing", dep.ID, err)
		}
	}()
	fmt.Printf("Deployment %s fires at %q (%s). It is %s; the next runs:\n",
		dep.ID, dep.Schedule.Expression, dep.Schedule.Timezone, now().In(berlin).Format(timeFormat))
	for _, at := range dep.Schedule.UpcomingRunsAt[:min(3, len(dep.Schedule.UpcomingRunsAt))] {
		fmt.Println("  ", at.In(berlin).Format(timeFormat))
	}

	// A run by hand starts a session now, whatever the schedule says.
	run, err := client.Deployments.RunNow(ctx, dep.ID)
	if err != nil {
		return err
	}
	if run.Failed() {
		return run.Error
	}
	fmt.Printf("Ran it by hand: %s started session %s\n", run.ID, run.SessionID)

	// Only the embedded server's clock can be moved: two days on, the
	// schedule has fired twice.
	if srv != nil {
		srv.Advance(48 * time.Hour) // returns once what fell due has run
		fmt.Println("Two days pass on the embedded server's clock; it is", now().In(berlin).Format(timeFormat))
	}

	fmt.Println("Runs, newest first:")
	for r, err := range client.Deployments.Runs.All(ctx, deployments.RunListParams{DeploymentID: dep.ID}) {
		if err != nil {
			return err
		}
		trigger := "by hand"
		if t, ok := r.TriggerContext.(deployments.ScheduleTrigger); ok {
			trigger = "scheduled for " + t.ScheduledAt.In(berlin).Format(timeFormat)
		}
		if r.Failed() {
			fmt.Printf("  %s  %-36s failed: %v\n", r.ID, trigger, r.Error)
			continue
		}
		s, err := client.Sessions.Get(ctx, r.SessionID)
		if err != nil {
			return err
		}
		fmt.Printf("  %s  %-36s session %s, %s\n", r.ID, trigger, s.ID, s.Status)
	}

	dep, err = client.Deployments.Get(ctx, dep.ID)
	if err != nil {
		return err
	}
	fmt.Println("Last run at", dep.Schedule.LastRunAt.In(berlin).Format(timeFormat))
	return nil
}

const timeFormat = "Mon 2 Jan 15:04 MST"
