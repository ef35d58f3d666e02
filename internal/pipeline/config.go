package pipeline

import (
	"time"

	"github.com/agentplatform/agentplatform-go/internal/config"
)

// Config is the settings of a client or a call (internal/config).
type Config = config.Config

// initialBackoff and maxBackoff shape the exponential backoff used when the
// server does not say how long to wait.
const (
	initialBackoff = 500 * time.Millisecond
	maxBackoff     = 8 * time.Second
)
