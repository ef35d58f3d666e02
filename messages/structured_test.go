package messages_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/messages"
)

// invoice holds a wire type with an embed field.
type invoice struct {
	Number   string   `json:"number"`
	Customer customer `json:"customer"`
}

type line struct {
	Item  string  `json:"item"`
	Price float64 `json:"price"`
}

type customer struct {
	Name string `json:"name"`
	// Extra is a wire type's store of unknown members.
	Extra map[string]json.RawMessage `json:",embed"`
}

// An embed field is left out at the top level only, as in tool inputs:
// deeper, it is a map, which a structured output cannot express.
func TestOutputFormatForEmbed(t *testing.T) {
	_, err := messages.OutputFormatFor[invoice]()
	require.Error(t, err, "a nested embed field is a map: not expressible")
	require.Contains(t, err.Error(), "field customer.Extra is a map")

	type flat struct {
		Number string `json:"number"`
		// Extra at the top level is left out, as in tool inputs.
		Extra map[string]json.RawMessage `json:",embed"`
	}
	f, err := messages.OutputFormatFor[flat]()
	require.NoError(t, err)
	require.JSONEq(t, `{"type":"object","additionalProperties":false,"required":["number"],"properties":{"number":{"type":"string"}}}`, string(f.Schema))
}

// receipt exercises each kind of field a structured output can have.
type receipt struct {
	Number string     `json:"number" jsonschema:"the receipt number"`
	Total  int        `json:"total"`
	Paid   bool       `json:"paid,omitempty"` // required all the same
	Lines  []line     `json:"lines"`
	Due    *time.Time `json:"due"`
	Issued time.Time  `json:"issued"`
	Small  uint8      `json:"small"`
	// Extra at the top level keeps unknown members: no property.
	Extra map[string]json.RawMessage `json:",embed"`
}

const receiptSchema = `{"type":"object","additionalProperties":false,
	"required":["number","total","paid","lines","due","issued","small"],
	"properties":{
		"number":{"type":"string","description":"the receipt number"},
		"total":{"type":"integer"},
		"paid":{"type":"boolean"},
		"lines":{"anyOf":[{"type":"array","items":{"type":"object","additionalProperties":false,"required":["item","price"],
			"properties":{"item":{"type":"string"},"price":{"type":"number"}}}},{"type":"null"}]},
		"due":{"anyOf":[{"type":"string","format":"date-time"},{"type":"null"}]},
		"issued":{"type":"string","format":"date-time"},
		"small":{"type":"integer","description":"{minimum: 0, maximum: 255}"}}}`

func TestOutputFormatForSchema(t *testing.T) {
	f, err := messages.OutputFormatFor[receipt]()
	require.NoError(t, err)
	require.JSONEq(t, receiptSchema, string(f.Schema))
	again, err := messages.OutputFormatFor[receipt]()
	require.NoError(t, err)
	require.Equal(t, f, again)
	again.Schema[0] = 'x' // the caller's copy, not the cached schema
	f, err = messages.OutputFormatFor[receipt]()
	require.NoError(t, err)
	require.JSONEq(t, receiptSchema, string(f.Schema))
}

func TestOutputFormatForBadTypes(t *testing.T) {
	for name, get := range map[string]func() (messages.JSONSchemaFormat, error){
		"field tags is a map": messages.OutputFormatFor[struct {
			Tags map[string]int `json:"tags"`
		}],
		"field v is an interface": messages.OutputFormatFor[struct {
			V any `json:"v"`
		}],
		"field list[] is an interface": messages.OutputFormatFor[struct {
			List []any `json:"list"`
		}],
		"must be a struct":                 messages.OutputFormatFor[[]receipt],
		"must be a struct: a structured o": messages.OutputFormatFor[*receipt],
		"unsupported":                      messages.OutputFormatFor[struct{ C chan int }],
		"cycle":                            messages.OutputFormatFor[node],
	} {
		t.Run(name, func(t *testing.T) {
			_, err := get()
			var v *apierror.ValidationError
			require.ErrorAs(t, err, &v)
			require.Equal(t, "output_config.format.schema", v.Field)
			require.Contains(t, v.Rule, name)
		})
	}
}

// synthReceipt is what the reference server's model writes for a
// receipt: the first branch of each anyOf, a valid date-time.
func synthReceipt() receipt {
	epoch := time.Unix(0, 0).UTC()
	return receipt{Number: "example", Lines: []line{}, Due: &epoch, Issued: epoch}
}

type node struct {
	Next *node `json:"next"`
}

func TestCreateAs(t *testing.T) {
	env, client := newEnv(t)
	p := prompt("Read the receipt")
	p.OutputConfig = &messages.OutputConfig{Effort: messages.EffortLow}
	res, err := messages.CreateAs[receipt](ctx, client.Messages, p)
	require.NoError(t, err)
	require.Equal(t, synthReceipt(), res.Value)
	require.Equal(t, messages.StopEndTurn, res.Message.StopReason)
	require.Equal(t, messages.EffortLow, p.OutputConfig.Effort)
	require.Nil(t, p.OutputConfig.Format, "the caller's params are not changed")

	oc := lastBody(t, env)["output_config"].(map[string]any)
	require.Equal(t, "low", oc["effort"])
	format, err := json.Marshal(oc["format"])
	require.NoError(t, err)
	require.JSONEq(t, `{"type":"json_schema","schema":`+receiptSchema+`}`, string(format))
}

func TestStreamAs(t *testing.T) {
	_, client := newEnv(t)
	st, err := messages.StreamAs[receipt](ctx, client.Messages, prompt("Read the receipt"))
	require.NoError(t, err)
	defer st.Close()
	var text string
	for ev, err := range st.Events() {
		require.NoError(t, err)
		if d, ok := ev.(messages.ContentBlockDeltaEvent); ok {
			text += d.Delta.(messages.TextDelta).Text
		}
	}
	res, err := st.Parsed()
	require.NoError(t, err)
	require.Equal(t, synthReceipt(), res.Value)
	require.Equal(t, text, res.Message.Text())

	// Without ranging over the events, Parsed reads the stream itself.
	st, err = messages.StreamAs[receipt](ctx, client.Messages, prompt("Read the receipt"))
	require.NoError(t, err)
	defer st.Close()
	again, err := st.Parsed()
	require.NoError(t, err)
	require.Equal(t, res.Value, again.Value)
}

func TestCreateAsRefusesItsOwnFormat(t *testing.T) {
	env, client := newEnv(t)
	before := len(env.Server.Requests())
	f := &messages.JSONSchemaFormat{Schema: json.RawMessage(`{"type":"object"}`)}
	for field, p := range map[string]messages.MessageParams{
		"output_config.format": with(prompt("Hi"), func(p *messages.MessageParams) { p.OutputConfig = &messages.OutputConfig{Format: f} }),
		"output_format":        with(prompt("Hi"), func(p *messages.MessageParams) { p.OutputFormat = f }),
	} {
		_, err := messages.CreateAs[receipt](ctx, client.Messages, p)
		var v *apierror.ValidationError
		require.ErrorAs(t, err, &v)
		require.Equal(t, field, v.Field)
		_, err = messages.StreamAs[receipt](ctx, client.Messages, p)
		require.ErrorAs(t, err, &v)
	}
	_, err := messages.CreateAs[struct{ M map[string]int }](ctx, client.Messages, prompt("Hi"))
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	_, err = messages.StreamAs[struct{ M map[string]int }](ctx, client.Messages, prompt("Hi"))
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	require.Len(t, env.Server.Requests(), before, "nothing was sent")
}

// parseBoth runs a request with CreateAs and with StreamAs and returns
// both errors, which must be *OutputError.
func parseBoth(t *testing.T, client *agentplatform.Client, p messages.MessageParams) [2]*messages.OutputError {
	t.Helper()
	var out [2]*messages.OutputError
	res, err := messages.CreateAs[receipt](ctx, client.Messages, p)
	require.Nil(t, res)
	require.ErrorAs(t, err, &out[0])
	st, err := messages.StreamAs[receipt](ctx, client.Messages, p)
	require.NoError(t, err)
	defer st.Close()
	res, err = st.Parsed()
	require.Nil(t, res)
	require.ErrorAs(t, err, &out[1])
	return out
}

func TestCreateAsInvalidOutput(t *testing.T) {
	_, client := newEnv(t)
	valid := `{"number":"A1","total":3,"paid":true,"lines":null,"due":null,"issued":"2026-01-02T03:04:05Z","small":7}`
	for _, tc := range []struct {
		name, text, want string
	}{
		{"not JSON", "Sorry, no JSON today", "not a JSON document"},
		{"against the schema", `{"number":1}`, "does not match the schema"},
		{"extra member", valid[:len(valid)-1] + `,"more":1}`, "does not match the schema"},
		{"out of the type's range", `{"number":"A1","total":3,"paid":true,"lines":null,"due":null,"issued":"2026-01-02T03:04:05Z","small":300}`, "does not decode"},
		{"bad date-time", `{"number":"A1","total":3,"paid":true,"lines":null,"due":null,"issued":"yesterday","small":7}`, "does not decode"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, e := range parseBoth(t, client, prompt("Read [[refserver:say "+tc.text+"]]")) {
				require.Equal(t, tc.text, e.Text)
				require.Contains(t, e.Error(), tc.want)
				require.Equal(t, messages.StopEndTurn, e.Message.StopReason)
				require.Equal(t, tc.text, e.Message.Text())
			}
		})
	}

	// The same directive with a valid document decodes.
	res, err := messages.CreateAs[receipt](ctx, client.Messages, prompt("Read [[refserver:say "+valid+"]]"))
	require.NoError(t, err)
	require.Equal(t, "A1", res.Value.Number)
	require.Equal(t, uint8(7), res.Value.Small)
}

func TestCreateAsRefusalAndCutOff(t *testing.T) {
	_, client := newEnv(t)
	for _, e := range parseBoth(t, client, prompt("Read [[refserver:refuse cyber]]")) {
		require.ErrorIs(t, e, messages.ErrOutputRefused)
		require.Equal(t, messages.StopRefusal, e.Message.StopReason)
		require.NotNil(t, e.Message.StopDetails)
	}
	cut := with(prompt("Read the receipt"), func(p *messages.MessageParams) { p.MaxTokens = 3 })
	for _, e := range parseBoth(t, client, cut) {
		require.ErrorIs(t, e, messages.ErrOutputTruncated)
		require.Equal(t, messages.StopMaxTokens, e.Message.StopReason)
		require.NotEmpty(t, e.Text, "the part that was written")
	}
	window := prompt("Read [[refserver:stop_reason model_context_window_exceeded]]")
	for _, e := range parseBoth(t, client, window) {
		require.ErrorIs(t, e, messages.ErrOutputTruncated)
	}
	// A turn that ends without a text block has nothing to decode.
	empty := prompt("Read [[refserver:say ]]")
	for _, e := range parseBoth(t, client, empty) {
		require.ErrorIs(t, e, messages.ErrNoOutput)
		require.True(t, errors.Is(e, messages.ErrNoOutput))
	}
}
