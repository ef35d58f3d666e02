// Package messages runs the model (docs/messages-wire.md): Create, Stream
// and CountTokens on POST /v1/messages and /v1/messages/count_tokens, and
// RunTools, a loop that runs client tools for the model. The
// OpenAI-compatible chat-completions endpoint is package chat.
//
//	msg, err := client.Messages.Create(ctx, messages.MessageParams{
//		Model:     models.VendorSonnet55,
//		MaxTokens: 1024,
//		System:    messages.Text("You are terse."),
//		Messages:  []messages.MessageParam{messages.UserText("Hello there")},
//	})
//	fmt.Println(msg.Text(), msg.StopReason, msg.Usage.OutputTokens)
//
//	// Streaming: events as they come, and the same Message at the end.
//	st, err := client.Messages.Stream(ctx, params)
//	if err != nil { … }
//	defer st.Close()
//	for ev, err := range st.Events() {
//		if err != nil { … } // *apierror.Error for an error event
//		if d, ok := ev.(messages.ContentBlockDeltaEvent); ok {
//			if t, ok := d.Delta.(messages.TextDelta); ok {
//				fmt.Print(t.Text)
//			}
//		}
//	}
//	msg, err = st.Message() // accumulated; partial (with the error) if the stream broke
//	ttfc := st.TimeToFirstChunk()
//
//	n, err := client.Messages.CountTokens(ctx, params.CountTokensParams())
//
//	// Client tools: the loop calls the model, runs the tool calls of each
//	// turn in parallel, sends the results back, until the model answers.
//	weather := tool.Must(tool.New("get_weather", "Current weather of a city.",
//		func(ctx context.Context, in struct{ City string `json:"city"` }) (tool.Result, error) {
//			return tool.Text("15 degrees, sunny"), nil
//		}))
//	res, err := client.Messages.RunTools(ctx, params, []tool.Tool{weather}, messages.ToolLoop{MaxIterations: 5})
//	fmt.Println(res.Message.Text()) // res.Messages is the whole conversation
//
// Unions (ContentBlock, Content, System, Tool, ToolChoice, Thinking,
// Fallbacks, Source, Citation, StreamEvent, Delta, the server tool result
// contents) are sealed interfaces: switch on the concrete type. Every union
// decoded from a response has an Unknown variant that keeps the raw JSON of
// a kind newer than this SDK, so it is never dropped, and a block received
// can be sent back unchanged.
// StopReason, ServiceTier and Effort keep unknown values.
//
// Every response type, block and event marshals to the JSON the API sends
// and decodes from it, with encoding/json or any other decoder that calls
// their methods: a member this SDK does not know is kept in the value's
// Extra and written back, so that a message stored as JSON, or a block
// sent back, loses nothing.
//
// Requests are checked locally first (max_tokens, sampling ranges, thinking
// budget, empty messages and content, tool names, stop sequences, …), by
// the rules of the API version the call is sent with (option.WithVersion;
// docs/api-versions.md says what 2026-10-21 refuses): a broken rule
// returns an *apierror.ValidationError naming the field by its dotted path
// in docs/messages-wire.md ("messages.0.content.1.text",
// "thinking.enabled.budget_tokens") and nothing is sent.
//
// A conversation holds user, assistant and system messages: SystemText
// adds instructions mid-conversation, immediately after a user message. The SDK adds the
// beta values a request's features need (MCP servers, fallbacks, file
// sources) to those of option.WithBeta.
//
// A stream is never retried once the server has answered 200; Message
// keeps what arrived before an error.
//
// StreamTools is RunTools over streamed model calls: range over its Events
// to show each turn as it is written, each tool call as soon as its block
// completes (its tool starts then) and each tool's result, while the loop
// sends the results back; Result then gives the conversation.
//
//	ts := client.Messages.StreamTools(ctx, params, []tool.Tool{weather}, messages.ToolLoop{})
//	defer ts.Close()
//	for ev, err := range ts.Events() {
//		if err != nil { … }
//		if ev.ToolUse != nil { fmt.Println("calling", ev.ToolUse.Name) }
//	}
//	res, err := ts.Result()
//
// # Structured outputs
//
// CreateAs and StreamAs ask for JSON that decodes into a Go struct: the
// output format's schema is generated from the type (OutputFormatFor,
// following the platform's rules for such schemas), and the final text
// block comes back checked and decoded. Output that is no T, refused or
// cut off is an *OutputError holding the text and the message.
//
//	type contact struct {
//		Name string `json:"name"`
//		Age  int    `json:"age"`
//	}
//	res, err := messages.CreateAs[contact](ctx, client.Messages, params)
//	fmt.Println(res.Value.Name)
//
// # Message Batches
//
// Service.Batches runs many requests asynchronously
// (docs/message-batches-wire.md): Create checks the platform's limits
// locally and is retried only when the request surely did not arrive;
// poll Get until the batch has ended, then range over Results, which
// decodes one result at a time, each a BatchSucceeded, BatchErrored,
// BatchCanceled, BatchExpired or BatchUnknown with its request's custom id.
package messages
