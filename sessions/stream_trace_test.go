package sessions_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// The span of a session's event stream (docs/tracing.md): one span from
// the first connection to the stream's end, its reconnections' requests
// its children, a recovered drop an event on it. The caller's context
// carries no span, so that a stray request would show as a root.

const (
	streamSpan     = "vendor.sessions.events.stream"
	reconnectEvent = "vendor.stream.reconnect"
)

// roots returns the recorded spans that have no parent.
func roots(rec *tracetest.SpanRecorder) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if !s.Parent().IsValid() {
			out = append(out, s)
		}
	}
	return out
}

// requireDescendant checks that s is in root's trace with root among its
// ancestors.
func requireDescendant(t *testing.T, rec *tracetest.SpanRecorder, root, s sdktrace.ReadOnlySpan) {
	t.Helper()
	require.Equal(t, root.SpanContext().TraceID(), s.SpanContext().TraceID(), "%s is in the stream's trace", s.Name())
	byID := map[trace.SpanID]sdktrace.ReadOnlySpan{}
	for _, sp := range rec.Ended() {
		byID[sp.SpanContext().SpanID()] = sp
	}
	for p := s.Parent(); p.IsValid(); {
		if p.SpanID() == root.SpanContext().SpanID() {
			return
		}
		parent, ok := byID[p.SpanID()]
		require.True(t, ok, "%s: an ancestor that was not recorded", s.Name())
		p = parent.Parent()
	}
	t.Fatalf("%s does not descend from the stream's span", s.Name())
}

// reconnects returns the reconnect events of span, as attribute maps.
func reconnects(span sdktrace.ReadOnlySpan) []map[attribute.Key]attribute.Value {
	var out []map[attribute.Key]attribute.Value
	for _, ev := range span.Events() {
		if ev.Name != reconnectEvent {
			continue
		}
		m := map[attribute.Key]attribute.Value{}
		for _, kv := range ev.Attributes {
			m[kv.Key] = kv.Value
		}
		out = append(out, m)
	}
	return out
}

// TestStreamSpanCoversReconnections: a stream cut once, recovered, then
// read to the session's end is one span, OK, with one reconnect event;
// every request of the reconnection is in its trace, under it, and the
// application saw no error. A stream resuming from a position reads its
// history under that span too; a stream without one reads a page of
// history before it connects, under the caller's context.
func TestStreamSpanCoversReconnections(t *testing.T) {
	for _, resume := range []bool{false, true} {
		t.Run(map[bool]string{false: "live", true: "resume"}[resume], func(t *testing.T) {
			f := newFixture(t)
			client, rec := f.traced(t)
			s := f.newSession(t, f.params())
			f.script(t, s.ID, []refserver.Step{refserver.Say("One.")}, []refserver.Step{refserver.Say("Two.")})
			params, turns := sessions.StreamParams{}, 1
			if resume { // a first turn, for the stream to read from the history
				tl := f.tail(t, s.ID, sessions.StreamParams{NoReconnect: true})
				f.send(t, s.ID, sessions.UserMessage("First."))
				tl.untilIdle()
				require.NoError(t, tl.stream.Close())
				params.ResumeAfter, turns = sessions.HistoryStart, 2
			}
			f.env.Server.InjectFault(refserver.Fault{Path: streamPath(s.ID), StreamCutAfter: 1})
			st, err := client.Sessions.Events.Stream(context.Background(), s.ID, params)
			require.NoError(t, err)
			defer st.Close()
			if !resume {
				f.send(t, s.ID, sessions.UserMessage("Go."))
			}

			var got []sessions.Event
			for ev, err := range st.Events() {
				require.NoError(t, err, "the application sees no error")
				if got = append(got, ev); resume && len(got) == 1 {
					// The history is being delivered; the connection, open
					// since Stream returned, gets the new turn and is cut.
					f.send(t, s.ID, sessions.UserMessage("Go."))
				}
				if ev.Type() == sessions.EventSessionStatusIdle {
					if turns--; turns == 0 {
						_, err := f.client.Sessions.Archive(ctx, s.ID) // the session's end ends the stream
						require.NoError(t, err)
					}
				}
			}
			require.Equal(t, eventIDs(f.history(t, s.ID)), eventIDs(got), "every event once, in order")

			stream := stream0(t, rec)
			for _, r := range roots(rec) {
				if r.SpanContext().Equal(stream.SpanContext()) {
					continue
				}
				// Without a position, the stream reads a page of history
				// before it connects: before its span, a call of its own.
				require.True(t, !resume && r.Name() == "vendor.sessions.events.list" && !r.EndTime().After(stream.StartTime()),
					"a stray root: %s", r.Name())
			}
			require.Equal(t, codes.Ok, stream.Status().Code)
			require.NotContains(t, spanAttrs(stream), attr.ErrorType)
			ev := reconnects(stream)
			require.Len(t, ev, 1, "one recovered drop")
			require.Equal(t, "connection_error", ev[0][attr.ErrorType].AsString())
			require.Positive(t, ev[0]["vendor.stream.reconnect.missed_events"].AsInt64(), "the events sent while away")
			require.EqualValues(t, 1, ev[0]["vendor.stream.reconnect.attempts"].AsInt64())

			seen := map[string]int{}
			for _, sp := range rec.Ended() {
				if !sp.Parent().IsValid() {
					continue
				}
				requireDescendant(t, rec, stream, sp)
				seen[sp.Name()]++
				if sp.Name() == streamSpan {
					require.Equal(t, codes.Ok, sp.Status().Code, "the new connection, ended by the server")
				}
			}
			require.Positive(t, seen["vendor.sessions.retrieve"], "the session check")
			require.Positive(t, seen[streamSpan], "the new connection")
			require.Positive(t, seen["vendor.sessions.events.list"], "the history read")
		})
	}
}

// stream0 is the stream's own span: the root one of that name.
func stream0(t *testing.T, rec *tracetest.SpanRecorder) sdktrace.ReadOnlySpan {
	t.Helper()
	for _, s := range rec.Ended() {
		if s.Name() == streamSpan && !s.Parent().IsValid() {
			return s
		}
	}
	t.Fatal("no stream span")
	return nil
}

// TestStreamSpanWhenReconnectingFails: a stream whose reconnection gives
// up ends with that error, and so does its span.
func TestStreamSpanWhenReconnectingFails(t *testing.T) {
	f := newFixture(t)
	client, rec := f.traced(t)
	s := f.newSession(t, f.params())
	f.env.Server.InjectFault(refserver.Fault{Path: streamPath(s.ID), StreamCutAfter: 1})
	f.env.Server.InjectFault(refserver.Fault{Method: http.MethodGet, Path: "/v1/sessions/" + s.ID, Status: http.StatusNotFound})
	st, err := client.Sessions.Events.Stream(context.Background(), s.ID, sessions.StreamParams{})
	require.NoError(t, err)
	defer st.Close()
	f.send(t, s.ID, sessions.UserMessage("Go."))
	var errs []error
	for _, err := range st.Events() {
		if err != nil {
			errs = append(errs, err)
		}
	}
	require.Len(t, errs, 1)
	reftest.RequireNotFound(t, errs[0], "")

	stream := stream0(t, rec)
	require.Equal(t, codes.Error, stream.Status().Code)
	require.Equal(t, "not_found_error", spanAttrs(stream)[attr.ErrorType].AsString())
	require.Empty(t, reconnects(stream), "nothing was recovered")
	check := lastSpan(t, rec, streamSpan) // the stream's own span ends last
	require.Equal(t, stream.SpanContext(), check.SpanContext())
	for _, sp := range rec.Ended() {
		if sp.Name() == "vendor.sessions.retrieve" {
			requireDescendant(t, rec, stream, sp)
			require.Equal(t, codes.Error, sp.Status().Code, "the failed session check")
		}
	}
}

// TestStreamSpanClosedAfterAReconnection: closed early, the span is unset,
// the recovered drop still recorded on it.
func TestStreamSpanClosedAfterAReconnection(t *testing.T) {
	f := newFixture(t)
	client, rec := f.traced(t)
	s := f.newSession(t, f.params())
	f.script(t, s.ID, []refserver.Step{refserver.Say("Done.")})
	f.env.Server.InjectFault(refserver.Fault{Path: streamPath(s.ID), StreamCutAfter: 1})
	st, err := client.Sessions.Events.Stream(context.Background(), s.ID, sessions.StreamParams{})
	require.NoError(t, err)
	f.send(t, s.ID, sessions.UserMessage("Go."))
	for ev, err := range st.Events() {
		require.NoError(t, err)
		if ev.Type() == sessions.EventAgentMessage { // from the history or the new connection
			break
		}
	}
	require.NoError(t, st.Close())

	stream := stream0(t, rec)
	require.Equal(t, codes.Unset, stream.Status().Code)
	require.NotContains(t, spanAttrs(stream), attr.ErrorType)
	require.Len(t, reconnects(stream), 1)
	for _, sp := range rec.Ended() {
		if sp.Name() == streamSpan && sp.Parent().IsValid() {
			requireDescendant(t, rec, stream, sp)
			require.Equal(t, codes.Unset, sp.Status().Code, "the new connection, closed by the application")
		}
	}
}

// TestUnreadStreamEndsWithItsContext: a stream that is never read nor
// closed ends its span, unset, when its context ends (with a cause or
// not), and lets its connection go; reading it afterwards yields the
// context's error and changes nothing.
func TestUnreadStreamEndsWithItsContext(t *testing.T) {
	for _, noReconnect := range []bool{false, true} {
		for _, cause := range []error{nil, errors.New("shutting down")} {
			t.Run(map[bool]string{false: "reconnecting", true: "no reconnection"}[noReconnect], func(t *testing.T) {
				conns := new(reftest.OpenConns)
				f := newFixture(t)
				client, rec := f.traced(t, option.WithHTTPClient(conns.Client()))
				s := f.newSession(t, f.params())
				sctx, cancel := context.WithCancelCause(context.Background())
				defer cancel(nil)
				st, err := client.Sessions.Events.Stream(sctx, s.ID, sessions.StreamParams{NoReconnect: noReconnect})
				require.NoError(t, err)
				named := func() (out []sdktrace.ReadOnlySpan) {
					for _, sp := range rec.Ended() {
						if sp.Name() == streamSpan {
							out = append(out, sp)
						}
					}
					return out
				}
				require.Empty(t, named(), "open while its context lasts")

				cancel(cause)
				require.Eventually(t, func() bool { return len(named()) > 0 }, time.Minute, time.Millisecond)
				spans := named()
				require.Len(t, spans, 1)
				require.Equal(t, codes.Unset, spans[0].Status().Code)
				require.NotContains(t, spanAttrs(spans[0]), attr.ErrorType)
				require.Eventually(t, func() bool { return conns.Open() == 0 }, time.Minute, time.Millisecond, "the connection is released")

				var errs []error
				for _, err := range st.Events() {
					errs = append(errs, err)
				}
				require.Len(t, errs, 1)
				require.ErrorIs(t, errs[0], context.Canceled)
				spans = named()
				require.Len(t, spans, 1, "ended once")
				require.Equal(t, codes.Unset, spans[0].Status().Code)
			})
		}
	}
}
