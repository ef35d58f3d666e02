package agents_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/tool"
)

// An agent is a versioned definition: model, system prompt and tools. The
// example uses platformtest, the in-process reference server; a program
// calls agentplatform.NewClient() instead.
func Example() {
	srv, err := platformtest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	// A custom tool runs in your process (see package toolrunner); the
	// built-in toolset runs in the session's environment.
	lookup := tool.Must(tool.New("lookup_order", "Look up an order by its id.",
		func(ctx context.Context, in struct {
			OrderID string `json:"order_id"`
		}) (tool.Result, error) {
			return tool.Text("shipped"), nil
		}))
	agent, err := client.Agents.Create(context.Background(), agents.CreateParams{
		Name:   "Support",
		Model:  agents.ModelConfig{ID: models.VendorSonnet55, Effort: agents.EffortMedium},
		System: "You answer questions about orders.",
		Tools:  append(agents.FromTools(lookup), agents.AgentToolset{}),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(agent.Name, "version", agent.Version, agent.Model.ID, agent.Model.Effort)
	for _, t := range agent.Tools {
		switch t := t.(type) { // Tool is a union: switch on the concrete type
		case agents.CustomTool:
			fmt.Println("custom tool:", t.Name)
		case agents.AgentToolset:
			fmt.Println("built-in toolset, default policy:", t.DefaultConfig.PermissionPolicy.Type)
		}
	}
	// Output:
	// Support version 1 vendor-sonnet-5-5 medium
	// custom tool: lookup_order
	// built-in toolset, default policy: always_allow
}

// Every change writes a new version. Passing the version you read makes
// the update conditional, so two editors cannot overwrite each other.
func ExampleService_Update() {
	client, done := exampleClient()
	defer done()
	ctx := context.Background()

	agent, err := client.Agents.Create(ctx, agents.CreateParams{
		Name: "Support", Model: agents.ModelID(models.VendorHaiku55), System: "Be thorough.",
	})
	if err != nil {
		log.Fatal(err)
	}
	updated, err := client.Agents.Update(ctx, agent.ID, agents.UpdateParams{
		Version: agent.Version,
		System:  param.Value("Be brief."),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("version", updated.Version, updated.System)

	// A second update from the stale copy is refused with 409; nothing changes.
	_, err = client.Agents.Update(ctx, agent.ID, agents.UpdateParams{
		Version: agent.Version,
		System:  param.Value("Be chatty."),
	})
	var apiErr *apierror.Error
	if errors.Is(err, apierror.ErrConflict) && errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Message) // read the agent again, then decide
	}

	// Earlier versions stay readable.
	v1, err := client.Agents.Get(ctx, agent.ID, agents.GetParams{Version: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("version", v1.Version, v1.System)
	// Output:
	// version 2 Be brief.
	// 409 version: does not match the current version `2`
	// version 1 Be thorough.
}

// All walks every page of the list, newest agent first.
func ExampleService_All() {
	client, done := exampleClient()
	defer done()
	ctx := context.Background()

	for _, name := range []string{"Triage", "Support", "Billing"} {
		_, err := client.Agents.Create(ctx, agents.CreateParams{Name: name, Model: agents.ModelID(models.VendorHaiku55)})
		if err != nil {
			log.Fatal(err)
		}
	}
	for a, err := range client.Agents.All(ctx, agents.ListParams{Limit: 2}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(a.Name)
	}
	// Output:
	// Billing
	// Support
	// Triage
}

// exampleClient starts a reference server and returns a client for it and a
// function that closes both, as Example does step by step. A fixed start
// time makes ids and timestamps, and so list order, the same on every run.
func exampleClient() (*agentplatform.Client, func()) {
	srv, err := platformtest.NewServer(platformtest.WithStartTime(time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)))
	if err != nil {
		log.Fatal(err)
	}
	client, err := srv.Client()
	if err != nil {
		srv.Close()
		log.Fatal(err)
	}
	return client, func() {
		client.Close()
		srv.Close()
	}
}
