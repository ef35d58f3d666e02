package agents_test

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/skills"
)

// customSkill uploads a skill and returns a reference to its version: an
// agent's custom skill must exist (docs/skills-wire.md 5).
func customSkill(t *testing.T, client *agentplatform.Client) agents.CustomSkill {
	t.Helper()
	sk, err := client.Skills.Create(context.Background(), skills.CreateParams{Files: skills.FS(fstest.MapFS{
		"SKILL.md": {Data: []byte("---\nname: research\ndescription: Finds sources.\n---\n")},
	})})
	require.NoError(t, err)
	return agents.CustomSkill{SkillID: sk.ID, Version: sk.LatestVersionID}
}
