package main

import (
	"context"
	"fmt"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
)

// streamMessage makes one Messages call and prints the reply as it streams.
func streamMessage(ctx context.Context, client *agentplatform.Client) error {
	stream, err := client.Messages.Stream(ctx, messages.MessageParams{
		Model:     models.VendorHaiku55,
		MaxTokens: 256,
		Messages:  []messages.MessageParam{messages.UserText("Say hello in five words.")},
	})
	if err != nil {
		return err
	}
	defer stream.Close()
	fmt.Print("\nMessages API, streamed: ")
	for ev, err := range stream.Events() {
		if err != nil {
			return err
		}
		if d, ok := ev.(messages.ContentBlockDeltaEvent); ok {
			if t, ok := d.Delta.(messages.TextDelta); ok {
				fmt.Print(t.Text)
			}
		}
	}
	msg, err := stream.Message()
	if err != nil {
		return err
	}
	fmt.Printf("\n(%s, %d input and %d output tokens, first chunk after %s)\n",
		msg.StopReason, msg.Usage.InputTokens, msg.Usage.OutputTokens, stream.TimeToFirstChunk().Round(time.Microsecond))
	return nil
}
