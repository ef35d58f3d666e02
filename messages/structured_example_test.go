package messages_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
)

// CreateAs asks for JSON that decodes into a Go type: the schema is
// generated from the type, and the answer comes back decoded. The
// reference server's stand-in model writes the simplest valid document
// ("example" for a string, 0 for a number); a model fills it in.
func ExampleCreateAs() {
	client, done := exampleClient()
	defer done()

	type contact struct {
		Name   string   `json:"name" jsonschema:"the person's full name"`
		Age    int      `json:"age"`
		Emails []string `json:"emails"`
	}
	res, err := messages.CreateAs[contact](context.Background(), client.Messages, messages.MessageParams{
		Model:     models.VendorSonnet55,
		MaxTokens: 1024,
		Messages:  []messages.MessageParam{messages.UserText("Ada Lovelace, 36, ada@example.com")},
	})
	if out := (*messages.OutputError)(nil); errors.As(err, &out) {
		// Refused (errors.Is messages.ErrOutputRefused), cut off, or not
		// a contact: Text is what the model wrote.
		log.Fatalf("no contact: %v\n%s", out.Err, out.Text)
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%+v\n", res.Value)
	fmt.Println(res.Message.Text())
	// Output:
	// {Name:example Age:0 Emails:[]}
	// {"age":0,"emails":[],"name":"example"}
}

// StreamAs shows the JSON as it is written, then decodes it.
func ExampleStreamAs() {
	client, done := exampleClient()
	defer done()

	type verdict struct {
		Accepted bool   `json:"accepted"`
		Reason   string `json:"reason"`
	}
	stream, err := messages.StreamAs[verdict](context.Background(), client.Messages, messages.MessageParams{
		Model:     models.VendorSonnet55,
		MaxTokens: 1024,
		Messages:  []messages.MessageParam{messages.UserText("Should we ship on Friday?")},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer stream.Close()
	for ev, err := range stream.Events() {
		if err != nil {
			log.Fatal(err)
		}
		if d, ok := ev.(messages.ContentBlockDeltaEvent); ok {
			if t, ok := d.Delta.(messages.TextDelta); ok {
				fmt.Printf("[%s]", t.Text)
			}
		}
	}
	fmt.Println()
	res, err := stream.Parsed()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%+v\n", res.Value)
	// Output:
	// [{"accepted":false,"reason":"example"}]
	// {Accepted:false Reason:example}
}
