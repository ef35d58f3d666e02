package sessions_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// The spans of the session calls (docs/tracing.md), recorded
// with tracetest against the reference server.

// traced returns a client of the fixture's server whose spans rec records.
func (f *fixture) traced(t *testing.T, opts ...option.Option) (*agentplatform.Client, *tracetest.SpanRecorder) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return f.env.Client(t, append([]option.Option{option.WithTracerProvider(tp), option.WithMaxRetries(0)}, opts...)...), rec
}

func spanAttrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

// lastSpan returns the last ended span, which must be called name.
func lastSpan(t *testing.T, rec *tracetest.SpanRecorder, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	spans := rec.Ended()
	require.NotEmpty(t, spans)
	s := spans[len(spans)-1]
	require.Equal(t, name, s.Name())
	require.Equal(t, trace.SpanKindClient, s.SpanKind())
	return s
}

func requireSessionSpan(t *testing.T, rec *tracetest.SpanRecorder, name, sessionID string) map[attribute.Key]attribute.Value {
	t.Helper()
	s := lastSpan(t, rec, name)
	require.Equal(t, codes.Ok, s.Status().Code, name)
	a := spanAttrs(s)
	require.Equal(t, sessionID, a[attr.SessionID].AsString(), "%s: vendor.session.id", name)
	require.NotContains(t, a, attr.GenAIConversationID, name)
	return a
}

// TestSessionScopedSpans: every call on one session names it; the
// create span adds the agent, its model and the environment.
func TestSessionScopedSpans(t *testing.T) {
	f := newFixture(t)
	client, rec := f.traced(t)
	store := f.newStore(t, "notes", "")

	s, err := client.Sessions.Create(ctx, sessions.CreateParams{Agent: agents.AgentID(f.agent.ID), EnvironmentID: f.envID,
		Resources: []sessions.ResourceParam{sessions.MemoryStoreResourceParam{MemoryStoreID: store.ID}}})
	require.NoError(t, err)
	a := requireSessionSpan(t, rec, "vendor.sessions.create", s.ID)
	require.Equal(t, f.agent.ID, a[attr.GenAIAgentID].AsString())
	require.Equal(t, "Researcher", a[attr.GenAIAgentName].AsString())
	require.Equal(t, models.VendorHaiku55, a[attr.GenAIRequestModel].AsString())
	require.Equal(t, f.envID, a[attr.SessionEnvironmentID].AsString())
	require.Equal(t, []string{"managed-agents-2026-04-01"}, a[attr.Beta].AsStringSlice())

	_, err = client.Sessions.Get(ctx, s.ID)
	require.NoError(t, err)
	requireSessionSpan(t, rec, "vendor.sessions.retrieve", s.ID)
	_, err = client.Sessions.Update(ctx, s.ID, sessions.UpdateParams{Title: param.Value("traced")})
	require.NoError(t, err)
	requireSessionSpan(t, rec, "vendor.sessions.update", s.ID)

	file, err := client.Sessions.Resources.Add(ctx, s.ID, sessions.FileResourceParam{FileID: fileID})
	require.NoError(t, err)
	requireSessionSpan(t, rec, "vendor.sessions.resources.add", s.ID)
	_, err = client.Sessions.Resources.List(ctx, s.ID, sessions.ResourceListParams{})
	require.NoError(t, err)
	requireSessionSpan(t, rec, "vendor.sessions.resources.list", s.ID)
	_, err = client.Sessions.Resources.Get(ctx, s.ID, file.ID)
	require.NoError(t, err)
	requireSessionSpan(t, rec, "vendor.sessions.resources.retrieve", s.ID)
	err = client.Sessions.Resources.Delete(ctx, s.ID, file.ID)
	require.NoError(t, err)
	requireSessionSpan(t, rec, "vendor.sessions.resources.delete", s.ID)

	_, err = client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.UserMessage("Hello")}})
	require.NoError(t, err)
	requireSessionSpan(t, rec, "vendor.sessions.events.send", s.ID)
	_, err = client.Sessions.Events.List(ctx, s.ID, sessions.EventListParams{})
	require.NoError(t, err)
	requireSessionSpan(t, rec, "vendor.sessions.events.list", s.ID)

	_, err = client.Sessions.List(ctx, sessions.ListParams{})
	require.NoError(t, err)
	require.NotContains(t, spanAttrs(lastSpan(t, rec, "vendor.sessions.list")), attr.SessionID, "not one session")

	_, err = client.Sessions.Archive(ctx, s.ID)
	require.NoError(t, err)
	requireSessionSpan(t, rec, "vendor.sessions.archive", s.ID)
	err = client.Sessions.Delete(ctx, s.ID)
	require.NoError(t, err)
	requireSessionSpan(t, rec, "vendor.sessions.delete", s.ID)

	_, err = client.Sessions.Get(ctx, s.ID)
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	span := lastSpan(t, rec, "vendor.sessions.retrieve")
	require.Equal(t, codes.Error, span.Status().Code)
	require.Equal(t, "not_found_error", spanAttrs(span)[attr.ErrorType].AsString())
	require.EqualValues(t, 404, spanAttrs(span)[attr.HTTPResponseStatus].AsInt64())
	require.Equal(t, s.ID, spanAttrs(span)[attr.SessionID].AsString())
}

// TestEventStreamSpans: the stream's span ends with the stream: unset
// when the application closes it or cancels, ERROR for an error event, OK
// when the server ends the stream.
func TestEventStreamSpans(t *testing.T) {
	f := newFixture(t)
	client, rec := f.traced(t)
	s := f.newSession(t, f.params())

	st, err := client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{})
	require.NoError(t, err)
	require.Equal(t, "vendor.sessions.events.list", lastSpan(t, rec, "vendor.sessions.events.list").Name(), "the stream's first page")
	n := len(rec.Ended())
	require.NoError(t, st.Close())
	span := lastSpan(t, rec, "vendor.sessions.events.stream")
	require.Len(t, rec.Ended(), n+1)
	require.Equal(t, codes.Unset, span.Status().Code, "closed early")
	a := spanAttrs(span)
	require.NotContains(t, a, attr.ErrorType)
	require.Equal(t, s.ID, a[attr.SessionID].AsString())
	require.EqualValues(t, 200, a[attr.HTTPResponseStatus].AsInt64(), "the status sent with the headers")

	// An error event ends the stream and its span in ERROR.
	rec.Reset()
	f.env.Server.InjectFault(refserver.Fault{Path: "/v1/sessions/" + s.ID + "/events/stream", StreamCutAfter: 1, Status: 529, ErrorType: "overloaded_error"})
	st, err = client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{NoReconnect: true})
	require.NoError(t, err)
	f.send(t, s.ID, sessions.UserMessage("Hello"))
	var streamErr error
	for _, err := range st.Events() {
		if err != nil {
			streamErr = err
		}
	}
	require.ErrorAs(t, streamErr, new(*apierror.Error))
	span = lastSpan(t, rec, "vendor.sessions.events.stream")
	require.Equal(t, codes.Error, span.Status().Code)
	require.Equal(t, "overloaded_error", spanAttrs(span)[attr.ErrorType].AsString())

	// The application's context ends: unset.
	rec.Reset()
	cctx, cancel := context.WithCancel(ctx)
	reading, read := reftest.FirstRead("/events/stream")
	st, err = client.Sessions.Events.Stream(cctx, s.ID, sessions.StreamParams{NoReconnect: true}, reading)
	require.NoError(t, err)
	reftest.When(t, read, func() error { cancel(); return nil }) // while Events waits for an event
	for _, err := range st.Events() {
		if err != nil {
			require.ErrorIs(t, err, context.Canceled)
		}
	}
	require.NoError(t, st.Close())
	span = lastSpan(t, rec, "vendor.sessions.events.stream")
	require.Equal(t, codes.Unset, span.Status().Code, "cancelled")
	require.NotContains(t, spanAttrs(span), attr.ErrorType)

	// The server ends the stream (the session is archived): OK.
	rec.Reset()
	st, err = client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{NoReconnect: true})
	require.NoError(t, err)
	_, err = f.client.Sessions.Archive(ctx, s.ID)
	require.NoError(t, err)
	for _, err := range st.Events() {
		require.NoError(t, err)
	}
	require.NoError(t, st.Close())
	require.Equal(t, codes.Ok, lastSpan(t, rec, "vendor.sessions.events.stream").Status().Code)
}

// coordinator starts a session of a coordinator whose one child thread
// runs steps, and returns it with the child's thread id.
func (f *fixture) coordinator(t *testing.T, steps ...refserver.Step) (*sessions.Session, string, *tail) {
	t.Helper()
	reviewer := f.newAgent(t, agents.CreateParams{Name: "code-reviewer", Model: f.agent.Model, Tools: []agents.Tool{lookupOrder}})
	lead := f.newAgent(t, agents.CreateParams{Name: "lead", Model: f.agent.Model,
		Multiagent: agents.Coordinator{Agents: []agents.RosterEntry{agents.AgentID(reviewer.ID)}}})
	s := f.newSession(t, sessions.CreateParams{Agent: agents.AgentID(lead.ID), EnvironmentID: f.envID})
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{refserver.Spawn("code-reviewer", steps...)})
	f.send(t, s.ID, sessions.UserMessage("Review the diff."))
	created := tl.until(isType(sessions.EventSessionThreadCreated))
	return s, created[len(created)-1].(sessions.PersistedEvent).Meta().ThreadID, tl
}

// TestConversationIDOfAThread: a call that names a thread sets
// gen_ai.conversation.id; the conversation id option replaces it.
func TestConversationIDOfAThread(t *testing.T) {
	f := newFixture(t)
	client, rec := f.traced(t)
	s, child, _ := f.coordinator(t, refserver.Hold())

	_, err := client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.InterruptThread(child)}})
	require.NoError(t, err)
	a := spanAttrs(lastSpan(t, rec, "vendor.sessions.events.send"))
	require.Equal(t, child, a[attr.GenAIConversationID].AsString())
	require.Equal(t, s.ID, a[attr.SessionID].AsString())

	_, err = client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.InterruptThread(child)}},
		option.WithConversationID("conv-7"))
	require.NoError(t, err)
	require.Equal(t, "conv-7", spanAttrs(lastSpan(t, rec, "vendor.sessions.events.send"))[attr.GenAIConversationID].AsString())

	_, err = client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.Interrupt()}})
	require.NoError(t, err)
	require.NotContains(t, spanAttrs(lastSpan(t, rec, "vendor.sessions.events.send")), attr.GenAIConversationID, "every thread")
}

// TestConversationIDOfAThreadsToolCall: the answer to a child thread's
// custom tool call names no thread; the server routes it, and the span
// takes the thread from the recorded answer.
func TestConversationIDOfAThreadsToolCall(t *testing.T) {
	f := newFixture(t)
	client, rec := f.traced(t)
	s, child, tl := f.coordinator(t, refserver.UseCustomTool("lookup_order", map[string]any{"order_id": "1234"}))
	use := tl.until(isType(sessions.EventAgentCustomToolUse))
	call := use[len(use)-1].(*sessions.AgentCustomToolUseEvent)
	require.Equal(t, child, call.ThreadID, "cross-posted from the child")

	echo, err := client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.CustomToolResult(call.ID, "shipped")}})
	require.NoError(t, err)
	require.Equal(t, child, echo[0].(sessions.PersistedEvent).Meta().ThreadID)
	a := spanAttrs(lastSpan(t, rec, "vendor.sessions.events.send"))
	require.Equal(t, child, a[attr.GenAIConversationID].AsString())
}

// TestNoRepositoryTokenReachesASpan: a repository's authorization token
// and the API key are in no attribute, content mode on or off.
func TestNoRepositoryTokenReachesASpan(t *testing.T) {
	const token = param.Secret("ghp_CANARYrepositoryToken0001")
	for _, content := range []bool{false, true} {
		f := newFixture(t)
		client, rec := f.traced(t, option.WithContentCapture(content))
		s, err := client.Sessions.Create(ctx, sessions.CreateParams{Agent: agents.AgentID(f.agent.ID), EnvironmentID: f.envID,
			Resources: []sessions.ResourceParam{sessions.RepositoryResourceParam{URL: repoURL, AuthorizationToken: token}}})
		require.NoError(t, err)
		repo := s.Resources[0].(sessions.RepositoryResource)
		_, err = client.Sessions.Resources.Update(ctx, s.ID, repo.ID, sessions.ResourceUpdateParams{AuthorizationToken: token + "2"})
		require.NoError(t, err)
		requireSessionSpan(t, rec, "vendor.sessions.resources.update", s.ID)
		_, err = client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.UserMessage("Clone it with " + "the token")}})
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(rec.Ended()), 3)
		for _, sp := range rec.Ended() {
			for _, kv := range sp.Attributes() {
				require.NotContains(t, kv.Value.String(), string(token), "%s %s", sp.Name(), kv.Key)
				require.NotContains(t, kv.Value.String(), f.env.Seed.APIKey, "%s %s", sp.Name(), kv.Key)
			}
		}
	}
}

// TestStreamEndedWhileBlockedIsUnset: Close from another goroutine, or
// cancelling the stream's context, while Events waits for the next event
// fails the pending read; that is the application ending the stream, not
// the stream failing (docs/tracing.md: unset).
func TestStreamEndedWhileBlockedIsUnset(t *testing.T) {
	for _, how := range []string{"close", "cancel"} {
		t.Run(how, func(t *testing.T) {
			f := newFixture(t)
			client, rec := f.traced(t)
			s := f.newSession(t, f.params())
			// A cause, as a runner or server shutting down gives: the
			// failed read then carries the cause, not context.Canceled.
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			reading, read := reftest.FirstRead("/events/stream")
			st, err := client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{NoReconnect: true}, reading)
			require.NoError(t, err)
			done := make(chan struct{})
			go func() {
				defer close(done)
				for range st.Events() {
				}
			}()
			<-read // Events waits for the next event
			if how == "close" {
				require.NoError(t, st.Close())
			} else {
				cancel(errors.New("shutting down"))
			}
			<-done
			span := lastSpan(t, rec, "vendor.sessions.events.stream")
			require.Equal(t, codes.Unset, span.Status().Code)
			require.NotContains(t, spanAttrs(span), attr.ErrorType)
		})
	}
}
