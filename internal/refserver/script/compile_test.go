package script

import (
	"encoding/json"
	"strings"
	"testing"
)

func roster(names ...string) func(string) bool {
	return func(n string) bool {
		for _, m := range names {
			if m == n {
				return true
			}
		}
		return false
	}
}

// A step built wrong is reported before what other steps say, even inside
// a Spawn whose agent is unknown.
func TestCompileErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		turns [][]Step
		want  string
	}{
		{"zero step", [][]Step{{Say("a")}, {Say(""), {}}}, "turn 1: step 1: the zero Step"},
		{"option on a step without options", [][]Step{{Hold().With(Tokens(1, 1))}}, "turn 0: step 0: Hold takes no step options"},
		{"built wrong inside Spawn first", [][]Step{{Say(""), Spawn("nobody", SayChunks("x").With(Verdict("allow")))}},
			"turn 0: step 1: step 0: SayChunks takes no step options"},
		{"empty Say", [][]Step{{Say("")}}, "turn 0: step 0: Say: the text must not be empty"},
		{"verdict", [][]Step{{UseTool("bash", nil).With(Verdict("maybe"))}}, `verdict "maybe"`},
		{"tool input", [][]Step{{UseCustomTool("t", []int{1})}}, "tool input: must encode as a JSON object"},
		{"roster", [][]Step{{Spawn("nobody")}}, `Spawn: agent "nobody" is not in the coordinator's roster`},
		{"child spawns", [][]Step{{Spawn("r", Spawn("r"))}}, "depth limit 1"},
		{"child terminates", [][]Step{{Spawn("r", Terminate("", ""))}}, "only on the primary thread"},
		{"firehose", [][]Step{{Firehose(0)}}, "n must be at least 1"},
		{"emit", [][]Step{{Emit("a\nb", nil)}}, "one non-empty line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile(tc.turns, roster("r"), 0)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	spawns := make([]Step, 3)
	for i := range spawns {
		spawns[i] = Spawn("r")
	}
	if _, err := Compile([][]Step{spawns}, roster("r"), MaxChildThreads-2); err == nil ||
		!strings.Contains(err.Error(), "at most 25 child threads") {
		t.Fatalf("err = %v", err)
	}
}

// Compile encodes what the engine reads once, options included.
func TestCompileOps(t *testing.T) {
	turns, err := Compile([][]Step{{
		Say("hi", Tokens(3, 4)).With(Outcome("needs_revision", "short")),
		UseMCPTool("srv", "tool", json.RawMessage(` { "a" : 1 } `), ToolOutput("out", true), Verdict("deny")),
		Spawn("r", Think("t")),
		Emit("x.y", map[string]any{"id": "drop", "type": "drop", "k": 1}),
	}}, roster("r"), 0)
	if err != nil {
		t.Fatal(err)
	}
	ops := turns[0]
	if o := ops[0]; o.Kind != KindSay || o.Text != "hi" || *o.Tokens != (Usage{3, 4}) ||
		*o.Outcome != (Evaluation{"needs_revision", "short"}) {
		t.Errorf("Say: %+v", o)
	}
	if o := ops[1]; string(o.Raw) != `{"a":1}` || o.Server != "srv" || *o.Output != (Output{"out", true}) || o.Verdict != "deny" {
		t.Errorf("UseMCPTool: %+v", o)
	}
	if o := ops[2]; len(o.Steps) != 1 || o.Steps[0].Kind != KindThink || o.ModelStep() {
		t.Errorf("Spawn: %+v", o)
	}
	if o := ops[3]; string(o.Raw) != `{"k":1}` || o.Name != "x.y" {
		t.Errorf("Emit: %+v", o)
	}
	if CountSpawns(ops) != 1 {
		t.Errorf("CountSpawns = %d", CountSpawns(ops))
	}
}

// The default custom tool call's input follows the tool's input_schema in
// order.
func TestCustomToolTurn(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"},"n":{"type":"integer"},` +
		`"b":{"type":"boolean"},"l":{"type":["array","null"]},"o":{"type":"object"},"u":{}}}`)
	ops := CustomToolTurn("lookup", schema, "a<b")
	if got, want := string(ops[0].Raw), `{"q":"a\u003cb","n":0,"b":false,"l":[],"o":{},"u":null}`; got != want {
		t.Errorf("input = %s, want %s", got, want)
	}
	if ops[1].Kind != KindSayToolResult || ops[1].Name != "lookup" {
		t.Errorf("reply = %+v", ops[1])
	}
}
