package sessions

import "github.com/agentplatform/agentplatform-go/internal/refserver/agents"

// Transitional: the names the sessions and engine files used for what
// lives in package agents. They kept the move mechanical (and merges with
// edits made meanwhile easy); they go away as the files use package agents
// directly.

type (
	agentVersion = agents.Version
	modelConfig  = agents.ModelConfig
	rosterEntry  = agents.RosterEntry
	customTool   = agents.CustomTool
	environment  = agents.EnvironmentInfo
)

const (
	maDefaultEffort   = agents.DefaultEffort
	multiagentCoord   = agents.MultiagentCoordinator
	rosterKindAgent   = agents.RosterKindAgent
	rosterKindSelf    = agents.RosterKindSelf
	rosterKindAdvisor = agents.RosterKindAdvisor
)

var (
	maToolsetTools   = agents.ToolsetTools
	parseAgentTools  = agents.ParseTools
	parseModelConfig = agents.ParseModelConfig
	parseSkills      = agents.ParseSkills
)
