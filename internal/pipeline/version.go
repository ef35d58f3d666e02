package pipeline

import "runtime"

// Version is the SDK's version, sent in the User-Agent header.
const Version = "0.1.0"

func goVersion() string { return runtime.Version() + "; " + runtime.GOOS + "/" + runtime.GOARCH }
