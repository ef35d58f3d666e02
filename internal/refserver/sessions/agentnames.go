package sessions

import "github.com/agentplatform/agentplatform-go/internal/refserver/agents"

// Transitional: the names sessions, deployments and the engine used for
// what now lives in package agents. They keep those files unchanged (and
// merges with edits made meanwhile easy); they go away as the files move
// into their own packages.

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
