// Command messages-tool-loop lets the model call Go functions through the
// Messages API. A tool is a function with a typed input (tool.New); RunTools
// calls the model, runs the tools it asks for, sends their results back, and
// repeats until the model answers. The program prints the conversation, then
// does the same loop by hand, for when each step needs your own control.
//
//	go run ./examples/messages-tool-loop
//
// Without VENDOR_API_KEY it runs against the SDK's reference server, started
// in this process, whose model is a deterministic stand-in: it calls the
// tools a prompt names, with the JSON written after the name as input. With
// VENDOR_API_KEY set it calls the API at VENDOR_BASE_URL.
package main

import (
	"cmp"
	"context"
	"fmt"
	"log"
	"os"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/tool"
)

// weatherInput is the tool's input; its JSON Schema is generated from it.
type weatherInput struct {
	City string `json:"city" jsonschema:"the city, e.g. Paris"`
}

var getWeather = tool.Must(tool.New("get_weather", "Get the current weather of a city.",
	func(ctx context.Context, in weatherInput) (tool.Result, error) {
		if in.City == "" {
			return tool.Errorf("no city given"), nil // the model reads it, and can try again
		}
		return tool.JSON(map[string]any{"city": in.City, "temperature_c": 18, "sky": "clear"})
	}))

func main() {
	log.SetFlags(0)
	if err := run(); err != nil {
		log.Fatal("messages-tool-loop: ", err)
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

	params := messages.MessageParams{
		Model:     models.VendorHaiku55,
		MaxTokens: 512,
		Messages: []messages.MessageParam{
			messages.UserText(`Is it warm in Paris right now? Call get_weather {"city": "Paris"} and answer in one sentence.`),
		},
	}

	// The loop: RunTools declares the tools, runs each call, and ends at
	// the model's answer.
	res, err := client.Messages.RunTools(ctx, params, []tool.Tool{getWeather}, messages.ToolLoop{MaxIterations: 5})
	if err != nil {
		return err
	}
	fmt.Printf("RunTools: %d model calls. The conversation:\n", res.Iterations)
	for _, m := range res.Messages { // the request's messages, then the model's and the tools'
		printMessage(m)
	}

	fmt.Println("\nThe same loop, by hand:")
	msg, err := manualLoop(ctx, client, params)
	if err != nil {
		return err
	}
	fmt.Printf("  answer: %s\n  (%s, %d input and %d output tokens in the last call)\n",
		msg.Text(), msg.StopReason, msg.Usage.InputTokens, msg.Usage.OutputTokens)
	return nil
}

// manualLoop is what RunTools does, written out: declare the tool, call the
// model, and while it asks for tools, run them and send the results back.
func manualLoop(ctx context.Context, client *agentplatform.Client, params messages.MessageParams) (*messages.Message, error) {
	params.Tools = messages.FromTools(getWeather)
	for range 5 {
		msg, err := client.Messages.Create(ctx, params)
		if err != nil {
			return nil, err
		}
		if msg.StopReason != messages.StopToolUse {
			return msg, nil
		}
		var results messages.Blocks
		for _, call := range msg.ToolUses() {
			r := getWeather.Run(ctx, call.Input) // a call of another tool would need its own dispatch
			fmt.Printf("  ran %s %s -> %s\n", call.Name, call.Input, r.TextContent())
			results = append(results, messages.ToolResult(call.ID, r))
		}
		params.Messages = append(params.Messages, msg.Param(), messages.UserBlocks(results...))
	}
	return nil, fmt.Errorf("no answer after 5 model calls")
}

// printMessage prints one message of the conversation, a line per block.
func printMessage(m messages.MessageParam) {
	blocks, ok := m.Content.(messages.Blocks)
	if !ok { // plain text
		fmt.Printf("  %-10s %s\n", m.Role+":", m.Content)
		return
	}
	for _, b := range blocks {
		switch b := b.(type) {
		case messages.TextBlock:
			fmt.Printf("  %-10s %s\n", m.Role+":", b.Text)
		case messages.ToolUseBlock:
			fmt.Printf("  %-10s calls %s %s\n", m.Role+":", b.Name, b.Input)
		case messages.ToolResultBlock:
			fmt.Printf("  %-10s result of %s: %s\n", m.Role+":", b.ToolUseID, contentText(b.Content))
		}
	}
}

// contentText is the text of a tool result's content.
func contentText(c messages.Content) string {
	switch c := c.(type) {
	case messages.Text:
		return string(c)
	case messages.Blocks:
		s := ""
		for _, b := range c {
			if t, ok := b.(messages.TextBlock); ok {
				s += t.Text
			}
		}
		return s
	}
	return ""
}
