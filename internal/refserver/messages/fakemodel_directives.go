package messages

import (
	"strconv"
	"strings"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The fake model's test directives (docs/messages-wire.md 10.9):
// [[refserver:<name> <args>]] inside a text block of the user message being
// answered. doc.go lists them.

const directiveOpen = "[[refserver:"

type directives struct {
	msg        int    // index of U's message, -1 when there is none
	u          string // U (10.1)
	say        *string
	errType    string
	errAfter   int // -1: an HTTP error (no after=)
	refuse     bool
	category   string // "" for none
	refuseAll  bool
	stopReason string
	redact     bool
	delay      time.Duration
}

// directiveErrors maps the error directive's types to their statuses and
// messages.
var directiveErrors = map[string]struct {
	status  int
	message string
}{
	kit.ErrOverloaded: {529, "Overloaded"},
	kit.ErrAPI:        {500, "Internal server error"},
	kit.ErrRateLimit:  {429, "Rate limited"},
}

var refusalExplanations = map[string]string{
	"cyber":                "This request was declined because it could enable cyber harm.",
	"bio":                  "This request was declined because it could enable biological harm.",
	"frontier_llm":         "This request was declined because it could assist the development of competing AI models.",
	"reasoning_extraction": "This request was declined because it asks the model to reproduce its internal reasoning.",
	"general_harms":        "This request was declined under the usage policy.",
}

// maxDirectiveDelayMS bounds the delay directive (one hour): a larger
// value would overflow time.Duration, and no test waits that long.
const maxDirectiveDelayMS = 3_600_000

// directives finds U's message, parses its directives and builds U. It is
// computed once per request.
func (r *msgRequest) directives() (*directives, error) {
	if r.dirs != nil {
		return r.dirs, nil
	}
	d := &directives{msg: -1, errAfter: -1}
	for i := len(r.messages) - 1; i >= 0; i-- {
		if r.messages[i].role == "user" {
			d.msg = i
			break
		}
	}
	if d.msg >= 0 {
		var parts []string
		for _, b := range r.messages[d.msg].content {
			if b.typ != "text" {
				continue
			}
			clean, err := d.scan(b.text, b.path)
			if err != nil {
				return nil, err
			}
			parts = append(parts, clean)
		}
		d.u = strings.TrimSpace(strings.Join(parts, "\n"))
	}
	r.dirs = d
	return d, nil
}

// scan removes the directives of one text block, applying them to d.
func (d *directives) scan(text, blockPath string) (string, error) {
	path := blockPath
	if !strings.HasSuffix(path, ".content") { // a list block, not the string shorthand
		path += ".text"
	}
	var clean strings.Builder
	for {
		start := strings.Index(text, directiveOpen)
		if start < 0 {
			break
		}
		end := strings.Index(text[start:], "]]")
		if end < 0 {
			break
		}
		inner := text[start+len(directiveOpen) : start+end]
		clean.WriteString(text[:start])
		text = text[start+end+2:]
		if err := d.apply(inner); err != nil {
			if err == errUnknownDirective {
				name, _, _ := strings.Cut(strings.TrimSpace(inner), " ")
				return "", pyErr(path, "unknown refserver directive `%s`", name)
			}
			return "", pyErr(path, "invalid refserver directive `%s%s]]`", directiveOpen, inner)
		}
	}
	clean.WriteString(text)
	return clean.String(), nil
}

var (
	errUnknownDirective = pyErr("", "unknown directive")
	errBadDirective     = pyErr("", "bad directive")
)

func (d *directives) apply(inner string) error {
	name, rest := inner, ""
	if i := strings.IndexAny(inner, " \t\n"); i >= 0 {
		name, rest = inner[:i], inner[i+1:]
	}
	args := strings.Fields(rest)
	switch name {
	case "say":
		d.say = &rest
	case "error":
		if len(args) < 1 || len(args) > 2 {
			return errBadDirective
		}
		if _, ok := directiveErrors[args[0]]; !ok {
			return errBadDirective
		}
		d.errType, d.errAfter = args[0], -1
		if len(args) == 2 {
			n, ok := strings.CutPrefix(args[1], "after=")
			after, err := strconv.Atoi(n)
			if !ok || err != nil || after < 0 {
				return errBadDirective
			}
			d.errAfter = after
		}
	case "refuse":
		d.refuse, d.category, d.refuseAll = true, "", false
		for i, a := range args {
			switch {
			case a == "all":
				d.refuseAll = true
			case i == 0 && a == "none":
			case i == 0 && refusalExplanations[a] != "":
				d.category = a
			default:
				return errBadDirective
			}
		}
	case "stop_reason":
		if len(args) != 1 {
			return errBadDirective
		}
		d.stopReason = args[0]
	case "redact":
		if len(args) != 0 {
			return errBadDirective
		}
		d.redact = true
	case "delay":
		ms, err := strconv.Atoi(strings.Join(args, ""))
		if len(args) != 1 || err != nil || ms < 0 || ms > maxDirectiveDelayMS {
			return errBadDirective
		}
		d.delay = time.Duration(ms) * time.Millisecond
	default:
		return errUnknownDirective
	}
	return nil
}
