package agents

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Built-in tool inputs: what the agent passed to a tool of the agent
// toolset, as carried by an agent.tool_use event. DecodeToolInput turns the
// event's tool name and input into one of these types:
//
//	in, err := agents.DecodeToolInput(name, input)
//	switch in := in.(type) {
//	case agents.BashInput:
//		fmt.Println("$", in.Command)
//	case agents.UnknownToolInput: // web_fetch, web_search, tools newer than this SDK
//	}

// ToolInput is the decoded input of a built-in tool call.
type ToolInput interface {
	// ToolName is the tool the input belongs to.
	ToolName() ToolName
	isToolInput()
}

// BashInput runs a shell command in the session's bash session.
type BashInput struct {
	// Command is the command line; "" only when Restart is set.
	Command string `json:"command,omitzero"`
	// Restart restarts the bash session.
	Restart bool `json:"restart,omitzero"`
	// TimeoutMS bounds the command in milliseconds; 0 means the runner's
	// default timeout.
	TimeoutMS int64 `json:"timeout_ms,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// EditInput replaces text in a file.
type EditInput struct {
	FilePath  string `json:"file_path"`
	OldString string `json:"old_string"`
	NewString string `json:"new_string"`
	// ReplaceAll replaces every occurrence; otherwise OldString must occur
	// exactly once.
	ReplaceAll bool `json:"replace_all,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// GlobInput lists files matching a doublestar pattern.
type GlobInput struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path,omitzero"` // "" means the working directory
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// GrepInput searches file contents with a regular expression.
type GrepInput struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ReadInput reads a file, optionally a range of lines.
type ReadInput struct {
	FilePath  string     `json:"file_path"`
	ViewRange *LineRange `json:"view_range,omitzero"` // nil: the whole file
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// LineRange is a 1-indexed inclusive [start_line, end_line] pair, a JSON
// array of exactly two numbers. An End of 0 or less means the end of file.
type LineRange struct {
	Start, End int
}

func (r LineRange) MarshalJSON() ([]byte, error) { return json.Marshal([2]int{r.Start, r.End}) }

func (r *LineRange) UnmarshalJSON(data []byte) error {
	var v []int
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	if len(v) != 2 {
		return fmt.Errorf("agents: view_range has %d numbers, want 2", len(v))
	}
	r.Start, r.End = v[0], v[1]
	return nil
}

// WriteInput writes (overwrites) a file.
type WriteInput struct {
	FilePath string `json:"file_path"`
	Content  string `json:"content"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownToolInput is the input of a tool without a typed input here
// (web_fetch, web_search, or a tool newer than this SDK), as received.
type UnknownToolInput struct {
	Name ToolName
	JSON json.RawMessage
}

func (BashInput) ToolName() ToolName          { return ToolBash }
func (EditInput) ToolName() ToolName          { return ToolEdit }
func (GlobInput) ToolName() ToolName          { return ToolGlob }
func (GrepInput) ToolName() ToolName          { return ToolGrep }
func (ReadInput) ToolName() ToolName          { return ToolRead }
func (WriteInput) ToolName() ToolName         { return ToolWrite }
func (u UnknownToolInput) ToolName() ToolName { return u.Name }

func (BashInput) isToolInput()        {}
func (EditInput) isToolInput()        {}
func (GlobInput) isToolInput()        {}
func (GrepInput) isToolInput()        {}
func (ReadInput) isToolInput()        {}
func (WriteInput) isToolInput()       {}
func (UnknownToolInput) isToolInput() {}

// MarshalJSON writes the input back as received.
func (u UnknownToolInput) MarshalJSON() ([]byte, error) {
	if len(u.JSON) == 0 {
		return []byte("{}"), nil
	}
	return u.JSON, nil
}

// DecodeToolInput decodes the input of a call to the built-in tool name.
// Tools without a typed input give an UnknownToolInput holding a copy of
// input; a malformed input of a known tool is an error.
func DecodeToolInput(name ToolName, input json.RawMessage) (ToolInput, error) {
	var (
		in  ToolInput
		err error
	)
	switch name {
	case ToolBash:
		in, err = decodeInput[BashInput](input)
	case ToolEdit:
		in, err = decodeInput[EditInput](input)
	case ToolGlob:
		in, err = decodeInput[GlobInput](input)
	case ToolGrep:
		in, err = decodeInput[GrepInput](input)
	case ToolRead:
		in, err = decodeInput[ReadInput](input)
	case ToolWrite:
		in, err = decodeInput[WriteInput](input)
	default:
		if len(input) > 0 && !json.Valid(input) { // kept raw, so checked here
			return nil, fmt.Errorf("agents: %s tool input is not JSON", name)
		}
		return UnknownToolInput{Name: name, JSON: bytes.Clone(input)}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("agents: %s tool input: %w", name, err)
	}
	return in, nil
}

func decodeInput[T ToolInput](input json.RawMessage) (ToolInput, error) {
	var v T
	if err := json.Unmarshal(input, &v); err != nil {
		return nil, err
	}
	return v, nil
}
