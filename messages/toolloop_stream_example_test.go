package messages_test

import (
	"context"
	"fmt"
	"log"

	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/tool"
)

// StreamTools shows each turn as it is written, and each tool call as soon
// as the model has made it, while the loop runs the tools and sends their
// results back.
func ExampleService_StreamTools() {
	client, done := exampleClient()
	defer done()

	weather := tool.Must(tool.New("get_weather", "The current weather of a city.",
		func(ctx context.Context, in struct {
			City string `json:"city"`
		}) (tool.Result, error) {
			return tool.Text("15 degrees and sunny in " + in.City), nil
		}))
	ts := client.Messages.StreamTools(context.Background(), messages.MessageParams{
		Model:     models.VendorSonnet55,
		MaxTokens: 1024,
		// The stand-in model calls a tool named in the prompt, with the JSON after its name.
		Messages: []messages.MessageParam{messages.UserText(`What's the weather? Use get_weather {"city": "Paris"}.`)},
	}, []tool.Tool{weather}, messages.ToolLoop{MaxIterations: 5})
	defer ts.Close()
	for ev, err := range ts.Events() {
		if err != nil {
			log.Fatal(err)
		}
		switch {
		case ev.ToolUse != nil:
			fmt.Printf("\n-> %s %s\n", ev.ToolUse.Name, ev.ToolUse.Input)
		case ev.Result != nil:
			fmt.Printf("<- error=%v\n", ev.Result.IsError)
		case ev.Message != nil:
			fmt.Printf(" (turn %d: %s)\n", ev.Iteration, ev.Message.StopReason)
		default:
			if d, ok := ev.Event.(messages.ContentBlockDeltaEvent); ok {
				if t, ok := d.Delta.(messages.TextDelta); ok {
					fmt.Print(t.Text)
				}
			}
		}
	}
	res, err := ts.Result()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("model calls:", res.Iterations, "messages:", len(res.Messages))
	// Output:
	// I'll use get_weather.
	// -> get_weather {"city":"Paris"}
	//  (turn 1: tool_use)
	// <- error=false
	// Result of get_weather: 15 degrees and sunny in Paris (turn 2: end_turn)
	// model calls: 2 messages: 4
}
