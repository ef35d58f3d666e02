package messages_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
)

var ctx = context.Background()

func newEnv(t *testing.T, opts ...refserver.Option) (*reftest.Env, *agentplatform.Client) {
	t.Helper()
	env := reftest.New(t, opts...)
	return env, env.Client(t)
}

// prompt is the smallest create request: one user message of text.
func prompt(text string) messages.MessageParams {
	return messages.MessageParams{
		Model:     models.VendorSonnet55,
		MaxTokens: 1024,
		Messages:  []messages.MessageParam{messages.UserText(text)},
	}
}

// sameMessage compares messages field for field except the random id;
// tool inputs compare as JSON values.
var sameMessage = cmp.Options{
	cmpopts.IgnoreFields(messages.Message{}, "ID"),
	cmp.Comparer(func(a, b json.RawMessage) bool { return jsonEqual(a, b) }),
}

func jsonEqual(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return cmp.Equal(x, y)
}

// lastBody returns the JSON body of the last request the server received.
func lastBody(t *testing.T, env *reftest.Env) map[string]any {
	t.Helper()
	reqs := env.Server.Requests()
	require.NotEmpty(t, reqs)
	var m map[string]any
	require.NoError(t, json.Unmarshal(reqs[len(reqs)-1].Body, &m))
	return m
}

// decodeBlock decodes one content block as a message's content does.
func decodeBlock(data []byte) (messages.ContentBlock, error) {
	var b messages.Blocks
	if err := json.Unmarshal(append(append([]byte("["), data...), ']'), &b); err != nil {
		return nil, err
	}
	if len(b) != 1 {
		return nil, fmt.Errorf("%d blocks", len(b))
	}
	return b[0], nil
}
