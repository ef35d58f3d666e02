package chat

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"unicode/utf8"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// The server's wording of the rules a chat request breaks, as the messages
// package words them.
const (
	fieldRequired = "Field required"
	maxToolName   = 128
)

var toolNameRule = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,128}$`)

func invalid(field, rule string) error { return &apierror.ValidationError{Field: field, Rule: rule} }

func idx(prefix string, i int) string { return prefix + "." + strconv.Itoa(i) }

func atLeast(n string) string { return "Input should be greater than or equal to " + n }
func atMost(n string) string  { return "Input should be less than or equal to " + n }

// numberIn checks an optional number against [min, max].
func numberIn(field string, v *float64, min, max float64) error {
	switch {
	case v == nil:
	case *v < min:
		return invalid(field, atLeast(strconv.FormatFloat(min, 'f', -1, 64)))
	case *v > max:
		return invalid(field, atMost(strconv.FormatFloat(max, 'f', -1, 64)))
	}
	return nil
}

// checkString is the server's string rule: min to max characters, then
// pattern.
func checkString(field, s string, min, max int, pattern *regexp.Regexp) error {
	n := utf8.RuneCountInString(s)
	switch {
	case n < min && min == 1:
		return invalid(field, "String should have at least 1 character")
	case n < min:
		return invalid(field, "String should have at least "+strconv.Itoa(min)+" characters")
	case n > max:
		return invalid(field, "String should have at most "+strconv.Itoa(max)+" characters")
	case !pattern.MatchString(s):
		return invalid(field, "String should match pattern '"+pattern.String()+"'")
	}
	return nil
}

// isObject reports whether raw is one JSON object.
func isObject(raw []byte) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{' && json.Valid(raw)
}

// validate checks a chat completion request before it is translated. The
// server validates the translated request, whose paths can differ (a
// function tool becomes tools.<i>.custom); these name what the caller
// wrote.
func (p *CompletionParams) validate() error {
	if p.Model == "" {
		return invalid("model", fieldRequired)
	}
	if len(p.Messages) == 0 {
		return invalid("messages", "List should have at least 1 item after validation, not 0")
	}
	for i, m := range p.Messages {
		path := idx("messages", i)
		switch m.Role {
		case RoleSystem, RoleDeveloper, RoleUser, RoleAssistant:
		case RoleTool:
			if m.ToolCallID == "" {
				return invalid(path+".tool_call_id", fieldRequired)
			}
		case "function":
			return invalid(path+".role", "unsupported role `function`")
		default:
			return invalid(path+".role", "Input should be 'system', 'developer', 'user', 'assistant' or 'tool'")
		}
		for k, c := range m.ToolCalls {
			if !isObject([]byte(c.Function.Arguments)) {
				return invalid(idx(path+".tool_calls", k)+".function.arguments", "must be a JSON object")
			}
		}
	}
	if p.MaxTokens < 0 {
		return invalid("max_tokens", atLeast("0"))
	}
	if p.MaxCompletionTokens < 0 {
		return invalid("max_completion_tokens", atLeast("0"))
	}
	if err := numberIn("temperature", p.Temperature, 0, 2); err != nil {
		return err
	}
	if err := numberIn("top_p", p.TopP, 0, 1); err != nil {
		return err
	}
	for i, t := range p.Tools {
		if err := checkString(idx("tools", i)+".function.name", t.Function.Name, 1, maxToolName, toolNameRule); err != nil {
			return err
		}
	}
	return nil
}
