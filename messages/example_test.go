package messages_test

import (
	"context"
	"fmt"
	"log"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/tool"
)

// Create sends a conversation and returns the model's message. The example
// uses platformtest, the in-process reference server, whose stand-in model
// repeats the prompt; a program calls agentplatform.NewClient() instead.
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

	msg, err := client.Messages.Create(context.Background(), messages.MessageParams{
		Model:     models.VendorSonnet55,
		MaxTokens: 1024,
		System:    messages.Text("You are terse."),
		Messages:  []messages.MessageParam{messages.UserText("Hello there")},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(msg.Text())
	fmt.Println(msg.StopReason, msg.Usage.TotalInputTokens(), msg.Usage.OutputTokens)
	// Output:
	// You said: Hello there
	// end_turn 14 6
}

// Stream shows the text as it is written; Message then returns the same
// Message that Create would have, accumulated from the events.
func ExampleService_Stream() {
	client, done := exampleClient()
	defer done()

	stream, err := client.Messages.Stream(context.Background(), messages.MessageParams{
		Model:     models.VendorHaiku55,
		MaxTokens: 1024,
		Messages:  []messages.MessageParam{messages.UserText("Tell me a story")},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer stream.Close()
	for ev, err := range stream.Events() {
		if err != nil {
			log.Fatal(err) // an *apierror.Error when the stream carried an error event
		}
		if d, ok := ev.(messages.ContentBlockDeltaEvent); ok {
			if t, ok := d.Delta.(messages.TextDelta); ok {
				fmt.Printf("[%s]", t.Text)
			}
		}
	}
	fmt.Println()

	msg, err := stream.Message()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(msg.Text(), msg.StopReason)
	// Output:
	// [You][ said:][ Tell][ me][ a][ story]
	// You said: Tell me a story end_turn
}

// CountTokens prices a request before sending it: the same input tokens
// Create would report.
func ExampleService_CountTokens() {
	client, done := exampleClient()
	defer done()
	ctx := context.Background()

	params := messages.MessageParams{
		Model:     models.VendorSonnet55,
		MaxTokens: 1024,
		Messages:  []messages.MessageParam{messages.UserText("Summarize the attached report in three bullet points.")},
	}
	n, err := client.Messages.CountTokens(ctx, params.CountTokensParams())
	if err != nil {
		log.Fatal(err)
	}
	msg, err := client.Messages.Create(ctx, params)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n.InputTokens, msg.Usage.TotalInputTokens())
	// Output:
	// 21 21
}

// RunTools calls the model, runs the tools it asks for, sends the results
// back, and repeats until the model answers.
func ExampleService_RunTools() {
	client, done := exampleClient()
	defer done()

	weather := tool.Must(tool.New("get_weather", "The current weather of a city.",
		func(ctx context.Context, in struct {
			City string `json:"city"`
		}) (tool.Result, error) {
			return tool.Text("15 degrees and sunny in " + in.City), nil
		}))
	res, err := client.Messages.RunTools(context.Background(), messages.MessageParams{
		Model:     models.VendorSonnet55,
		MaxTokens: 1024,
		// The stand-in model calls a tool named in the prompt, with the JSON after its name.
		Messages: []messages.MessageParam{messages.UserText(`What's the weather? Use get_weather {"city": "Paris"}.`)},
	}, []tool.Tool{weather}, messages.ToolLoop{MaxIterations: 5})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Message.Text())
	fmt.Println("model calls:", res.Iterations, "messages:", len(res.Messages))
	// Output:
	// Result of get_weather: 15 degrees and sunny in Paris
	// model calls: 2 messages: 4
}

// exampleClient starts a reference server and returns a client for it and a
// function that closes both, as Example does step by step.
func exampleClient() (*agentplatform.Client, func()) {
	srv, err := platformtest.NewServer()
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
