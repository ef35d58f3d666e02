package memorystores

import (
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
)

// beta is the vendor-beta value the SDK sends on every memory endpoint. The
// API also accepts "managed-agents-2026-04-01"; a caller that replaces the
// header with that value (option.WithHeader) is served the same.
const beta = "agent-memory-2026-07-22"

// Service calls the memory store endpoints. Get one from
// agentplatform.Client.MemoryStores.
//
// The endpoints nest three levels deep on the wire (stores, the memories in
// a store, and the versions those memories leave behind), and so does the
// service: store methods sit on Service itself, memory methods on Memories,
// version methods on Versions. Each level then has the usual short verbs
// (Create, Get, List, All, Update, Delete), and typing
// client.MemoryStores. in an editor shows the two sub-services beside the
// store methods, which a flat list of CreateMemory, ListMemoryVersions, …
// would bury among twenty names.
type Service struct {
	p *pipeline.Pipeline

	Memories *MemoriesService // memories inside a store
	Versions *VersionsService // the version history of a store's memories
}

// NewService returns a service configured from the environment and opts,
// as agentplatform.NewClient would configure it; agentplatform.Client.MemoryStores
// is one already made. Options that fail make every call fail with
// their error. A service made on its own has no Close: give it
// option.WithHTTPClient to manage its connections.
func NewService(opts ...option.Option) *Service {
	p := pipeline.ForService(opts)
	return &Service{p: p, Memories: &MemoriesService{p: p}, Versions: &VersionsService{p: p}}
}

// MemoriesService calls the memory endpoints. Get one from
// agentplatform.Client.MemoryStores.Memories.
//
// The path rule, checked before sending: a path starts with "/", is 2 to
// 1024 UTF-8 bytes, and has no empty, "." or ".." segment (so no trailing
// "/") and no control or format character. The platform also requires
// NFC-normalized paths; the SDK does not check that (it would need Unicode
// normalization tables), so normalize paths that may come decomposed. Paths
// behave as a file tree: a memory cannot sit at, above or below another's
// path (see ErrPathConflict and PathConflictError).
type MemoriesService struct{ p *pipeline.Pipeline }

// VersionsService calls the memory version endpoints. Get one from
// agentplatform.Client.MemoryStores.Versions.
type VersionsService struct{ p *pipeline.Pipeline }

// newRequest starts a request that carries beta: every endpoint of this
// package requires it.
func newRequest(method, route string, params ...string) *pipeline.Request {
	req := pipeline.NewRequest(method, route, params...)
	req.Beta = beta
	return req
}
