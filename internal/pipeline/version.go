package pipeline

import (
	"runtime"

	"github.com/agentplatform/agentplatform-go/internal/version"
)

// Version is the SDK's version, sent in the User-Agent header.
const Version = version.SDK

func goVersion() string { return runtime.Version() + "; " + runtime.GOOS + "/" + runtime.GOARCH }
