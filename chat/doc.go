// Package chat is the OpenAI-compatible chat-completions endpoint
// (docs/messages-wire.md 9): code written against the OpenAI shape runs on
// the platform's models through POST /v1/chat/completions. The native
// shape, with every feature of the models, is package messages.
//
//	c, err := client.Chat.Create(ctx, chat.CompletionParams{
//		Model:    models.VendorSonnet55,
//		Messages: []chat.Message{chat.SystemMessage("You are terse."), chat.UserMessage("Hello there")},
//		Tools:    []chat.Tool{chat.FromTool(weather)},
//	})
//	fmt.Println(c.Choices[0].Message.Content, c.Choices[0].FinishReason)
//
//	// Streaming: data-only chunks, and the same Completion at the end.
//	st, err := client.Chat.Stream(ctx, params)
//	if err != nil { … }
//	defer st.Close()
//	for chunk, err := range st.Chunks() { … }
//	c, err = st.Completion()
//
// ContentPart and ToolChoice are sealed unions: switch on the concrete
// type; a content part of a kind this SDK does not know is kept as
// received. FinishReason keeps unknown values.
//
// Requests are checked locally first (roles, tool call ids and arguments,
// token limits, sampling ranges, function names): a broken rule returns an
// *apierror.ValidationError naming the field as the caller wrote it, and
// nothing is sent. The endpoint's OpenAI-shaped errors, before or during a
// stream, are *apierror.Error like every other call's. A stream that ends
// early returns what arrived with messages.ErrIncomplete or the error that
// ended it.
package chat
