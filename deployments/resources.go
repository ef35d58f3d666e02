package deployments

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/union"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// ResourceConfig is a resource as a deployment stores it, to give each
// session it creates: FileResourceConfig, RepositoryResourceConfig,
// MemoryStoreResourceConfig, or UnknownResourceConfig. It echoes the
// request (sessions.ResourceParam) without the repository token, which is
// never returned; fields that were not sent read as their zero value.
//
// To change a deployment's resources, send sessions.ResourceParam values
// again, tokens included: an update replaces the whole list.
type ResourceConfig interface{ isResourceConfig() }

// FileResourceConfig mounts an uploaded file (type "file").
type FileResourceConfig struct {
	FileID    string `json:"file_id"`
	MountPath string `json:"mount_path"` // "" when not configured: the session's default
}

// RepositoryResourceConfig checks out a repository (type "vcs_repository").
type RepositoryResourceConfig struct {
	URL       string            `json:"url"`
	Checkout  sessions.Checkout `json:"checkout"`   // nil: the default branch
	MountPath string            `json:"mount_path"` // "" when not configured
}

// MemoryStoreResourceConfig attaches a memory store (type "memory_store").
type MemoryStoreResourceConfig struct {
	MemoryStoreID string          `json:"memory_store_id"`
	Access        sessions.Access `json:"access"`       // "" when not configured: read_write
	Instructions  string          `json:"instructions"` // "" when not configured
}

// UnknownResourceConfig is a resource type this SDK does not know, kept as
// received.
type UnknownResourceConfig struct{ union.Raw }

func (FileResourceConfig) isResourceConfig()        {}
func (RepositoryResourceConfig) isResourceConfig()  {}
func (MemoryStoreResourceConfig) isResourceConfig() {}
func (UnknownResourceConfig) isResourceConfig()     {}

func (r FileResourceConfig) MarshalJSON() ([]byte, error) {
	type plain FileResourceConfig
	return union.Marshal(sessions.ResourceTypeFile, plain(r))
}

func (r RepositoryResourceConfig) MarshalJSON() ([]byte, error) {
	type plain RepositoryResourceConfig
	return union.Marshal(sessions.ResourceTypeRepository, plain(r))
}

func (r MemoryStoreResourceConfig) MarshalJSON() ([]byte, error) {
	type plain MemoryStoreResourceConfig
	return union.Marshal(sessions.ResourceTypeMemoryStore, plain(r))
}

func (r *RepositoryResourceConfig) UnmarshalJSON(data []byte) error {
	type plain RepositoryResourceConfig
	var w struct {
		plain
		Checkout json.RawMessage `json:"checkout"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*r = RepositoryResourceConfig(w.plain)
	var err error
	r.Checkout, err = sessions.DecodeCheckout(w.Checkout)
	return err
}

func decodeResourceConfig(data []byte) (ResourceConfig, error) {
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case sessions.ResourceTypeFile:
		var r FileResourceConfig
		return r, json.Unmarshal(data, &r)
	case sessions.ResourceTypeRepository:
		var r RepositoryResourceConfig
		return r, json.Unmarshal(data, &r)
	case sessions.ResourceTypeMemoryStore:
		var r MemoryStoreResourceConfig
		return r, json.Unmarshal(data, &r)
	}
	return UnknownResourceConfig{union.NewRaw(typ, data)}, nil
}
