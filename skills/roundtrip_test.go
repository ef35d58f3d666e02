package skills_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/internal/wiretest"
	"github.com/agentplatform/agentplatform-go/skills"
)

func decode[T any](data []byte) (T, error) {
	var v T
	err := json.Unmarshal(data, &v)
	return v, err
}

// TestServerResponsesRoundTrip: every object the reference server sends —
// skills, versions, both deletions — encodes back to the server's JSON
// and decodes again equal.
func TestServerResponsesRoundTrip(t *testing.T) {
	ctx := context.Background()
	client := reftest.New(t).Client(t)
	sk, err := client.Skills.Create(ctx, skills.CreateParams{Files: skills.FS(skillFS("round", "Trip."))})
	require.NoError(t, err)
	v2, err := client.Skills.Versions.Create(ctx, sk.ID, skills.CreateVersionParams{Files: skills.FS(skillFS("round", "Again."))})
	require.NoError(t, err)

	get := func(method, path string) json.RawMessage {
		var raw json.RawMessage
		require.NoError(t, client.Execute(ctx, method, path, nil, &raw))
		return raw
	}
	list := func(path string) []json.RawMessage {
		var page struct{ Data []json.RawMessage }
		require.NoError(t, client.Execute(ctx, http.MethodGet, path, nil, &page))
		return page.Data
	}
	skillsSeen := append(list("/v1/skills"), get(http.MethodGet, "/v1/skills/"+sk.ID))
	versions := append(list("/v1/skills/"+sk.ID+"/versions"), get(http.MethodGet, "/v1/skills/"+sk.ID+"/versions/latest"))
	deleted := []json.RawMessage{get(http.MethodDelete, "/v1/skills/"+sk.ID+"/versions/"+v2.ID), get(http.MethodDelete, "/v1/skills/"+sk.ID)}

	for _, raw := range skillsSeen {
		_, ok := wiretest.RoundTrip(t, raw, decode[skills.Skill], true)
		require.True(t, ok, "%s", raw)
	}
	require.Len(t, versions, 3)
	for _, raw := range versions {
		_, ok := wiretest.RoundTrip(t, raw, decode[skills.Version], true)
		require.True(t, ok, "%s", raw)
	}
	for _, raw := range deleted {
		_, ok := wiretest.RoundTrip(t, raw, decode[skills.Deleted], true)
		require.True(t, ok, "%s", raw)
	}
}

// TestCorpusRoundTrips: the objects under testdata, with members this SDK
// does not know, round-trip too.
func TestCorpusRoundTrips(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		var probe struct{ Type string }
		require.NoError(t, json.Unmarshal(data, &probe))
		var ok bool
		switch probe.Type {
		case "skill":
			_, ok = wiretest.RoundTrip(t, data, decode[skills.Skill], false)
		case "skill_version":
			_, ok = wiretest.RoundTrip(t, data, decode[skills.Version], false)
		default:
			_, ok = wiretest.RoundTrip(t, data, decode[skills.Deleted], false)
		}
		require.True(t, ok, p)
	}
}

// FuzzSkillRoundTrip: whatever decodes as a skill encodes back to JSON
// that decodes equal.
func FuzzSkillRoundTrip(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*.json")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var sk skills.Skill
		if json.Unmarshal(data, &sk) != nil {
			return
		}
		wiretest.RoundTrip(t, data, decode[skills.Skill], false)
		var v skills.Version
		if json.Unmarshal(data, &v) == nil {
			wiretest.RoundTrip(t, data, decode[skills.Version], false)
		}
	})
}

// TestWireTypesHaveJSONMethods: every exported struct with an Extra field
// encodes through its own methods, which write Extra's members back.
func TestWireTypesHaveJSONMethods(t *testing.T) {
	wiretest.Implements(t, wiretest.Methods(t, "."), skills.Skill{}, skills.Source{}, skills.Version{}, skills.Deleted{})
}
