package messages_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/platformtest"
)

// A batch runs many requests asynchronously: create it, wait until it has
// ended, then read its results, matched to the requests by custom id. The
// reference server processes a batch on its clock, which the example
// moves on instead of waiting; a program polls Get every minute or so.
func ExampleBatchesService() {
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
	ctx := context.Background()

	ask := func(id, text string) messages.BatchRequest {
		return messages.BatchRequest{CustomID: id, Params: messages.MessageParams{
			Model: models.VendorHaiku55, MaxTokens: 256,
			Messages: []messages.MessageParam{messages.UserText(text)},
		}}
	}
	batch, err := client.Messages.Batches.Create(ctx, messages.BatchCreateParams{Requests: []messages.BatchRequest{
		ask("greeting", "Hello"),
		ask("question", "How are you?"),
	}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(batch.ProcessingStatus, batch.RequestCounts.Processing)

	srv.Advance(time.Minute)
	for batch.ProcessingStatus != messages.BatchEnded {
		if batch, err = client.Messages.Batches.Get(ctx, batch.ID); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(batch.ProcessingStatus, batch.RequestCounts.Succeeded)

	for r, err := range client.Messages.Batches.Results(ctx, batch.ID) {
		if err != nil {
			log.Fatal(err)
		}
		switch r := r.(type) {
		case messages.BatchSucceeded:
			fmt.Printf("%s: %s\n", r.CustomID, r.Message.Content[0].(messages.TextBlock).Text)
		case messages.BatchErrored:
			fmt.Printf("%s: %s\n", r.CustomID, r.Error.Message)
		default:
			fmt.Printf("%s: %T\n", r.RequestCustomID(), r)
		}
	}
	// Output:
	// in_progress 2
	// ended 2
	// greeting: You said: Hello
	// question: You said: How are you?
}
