package deployments

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/wire"
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
	MountPath string `json:"mount_path,omitzero"` // "" when not configured: the session's default
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// RepositoryResourceConfig checks out a repository (type "vcs_repository").
type RepositoryResourceConfig struct {
	URL       string            `json:"url"`
	Checkout  sessions.Checkout `json:"checkout"`            // nil: the default branch
	MountPath string            `json:"mount_path,omitzero"` // "" when not configured
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// MemoryStoreResourceConfig attaches a memory store (type "memory_store").
type MemoryStoreResourceConfig struct {
	MemoryStoreID string          `json:"memory_store_id"`
	Access        sessions.Access `json:"access,omitzero"`       // "" when not configured: read_write
	Instructions  string          `json:"instructions,omitzero"` // "" when not configured
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownResourceConfig is a resource type this SDK does not know, kept as
// received.
type UnknownResourceConfig struct {
	Type string          // the resource's "type"
	JSON json.RawMessage // the whole object
}

func (FileResourceConfig) isResourceConfig()        {}
func (RepositoryResourceConfig) isResourceConfig()  {}
func (MemoryStoreResourceConfig) isResourceConfig() {}
func (UnknownResourceConfig) isResourceConfig()     {}

type (
	plainFileResourceConfig        FileResourceConfig
	plainRepositoryResourceConfig  RepositoryResourceConfig
	plainMemoryStoreResourceConfig MemoryStoreResourceConfig
)

// MarshalJSON writes the resource with its type first.
func (r FileResourceConfig) MarshalJSON() ([]byte, error) {
	body, err := wire.Marshal(plainFileResourceConfig(r))
	if err != nil {
		return nil, err
	}
	return wire.WithType(string(sessions.ResourceTypeFile), body)
}

// MarshalJSON writes the resource with its type first.
func (r RepositoryResourceConfig) MarshalJSON() ([]byte, error) {
	body, err := wire.Marshal(plainRepositoryResourceConfig(r))
	if err != nil {
		return nil, err
	}
	return wire.WithType(string(sessions.ResourceTypeRepository), body)
}

// MarshalJSON writes the resource with its type first.
func (r MemoryStoreResourceConfig) MarshalJSON() ([]byte, error) {
	body, err := wire.Marshal(plainMemoryStoreResourceConfig(r))
	if err != nil {
		return nil, err
	}
	return wire.WithType(string(sessions.ResourceTypeMemoryStore), body)
}

// UnmarshalJSON decodes the resource's members; its "type" is not read.
func (r *FileResourceConfig) UnmarshalJSON(data []byte) error {
	return wire.Variant(data, (*plainFileResourceConfig)(r), &r.Extra)
}

// UnmarshalJSON decodes the resource's members, its checkout into its
// variant; its "type" is not read.
func (r *RepositoryResourceConfig) UnmarshalJSON(data []byte) error {
	return wire.Variant(data, (*plainRepositoryResourceConfig)(r), &r.Extra, checkouts)
}

// UnmarshalJSON decodes the resource's members; its "type" is not read.
func (r *MemoryStoreResourceConfig) UnmarshalJSON(data []byte) error {
	return wire.Variant(data, (*plainMemoryStoreResourceConfig)(r), &r.Extra)
}

// MarshalJSON writes the object back as it was received.
func (u UnknownResourceConfig) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

func decodeResourceConfig(typ string, obj []byte) (ResourceConfig, error) {
	switch typ {
	case string(sessions.ResourceTypeFile):
		var r FileResourceConfig
		err := r.UnmarshalJSON(obj)
		return r, named(typ, err)
	case string(sessions.ResourceTypeRepository):
		var r RepositoryResourceConfig
		err := r.UnmarshalJSON(obj)
		return r, named(typ, err)
	case string(sessions.ResourceTypeMemoryStore):
		var r MemoryStoreResourceConfig
		err := r.UnmarshalJSON(obj)
		return r, named(typ, err)
	}
	return UnknownResourceConfig{Type: typ, JSON: clone(obj)}, nil
}
