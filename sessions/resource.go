package sessions

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/union"
)

// Resource is something mounted into a session (docs/managed-agents-wire.md
// 3.9): FileResource, RepositoryResource, MemoryStoreResource, or
// UnknownResource (a type newer than this SDK, kept intact). Switch on the
// concrete type:
//
//	switch r := res.(type) {
//	case sessions.FileResource:       … r.FileID …
//	case sessions.RepositoryResource: … r.URL …
//	case sessions.MemoryStoreResource: … r.MemoryStoreID …
//	}
type Resource interface{ isResource() }

// FileResource is an uploaded file (type "file").
type FileResource struct {
	ID        string    `json:"id"`      // "sesrsc_…"
	FileID    string    `json:"file_id"` // "file_…"
	MountPath string    `json:"mount_path"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// RepositoryResource is a source-code repository checked out into the
// session (type "vcs_repository"). Its authorization token is write-only:
// it is never returned.
type RepositoryResource struct {
	ID  string `json:"id"`
	URL string `json:"url"`
	// Checkout is nil when the repository's default branch is used.
	Checkout  Checkout  `json:"checkout"`
	MountPath string    `json:"mount_path"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// MemoryStoreResource is a memory store attached to the session (type
// "memory_store").
type MemoryStoreResource struct {
	ID            string `json:"id"`
	MemoryStoreID string `json:"memory_store_id"` // "memstore_…"
	Access        Access `json:"access"`          // always resolved
	// Name and Description are snapshots taken when the store was
	// attached; renaming the store later does not change them.
	Name        string `json:"name"`
	Description string `json:"description"`
	// Instructions tell the agent how to use the store; "" when unset.
	Instructions string `json:"instructions"`
	// MountPath is derived from the store's name, under /mnt/memory/.
	MountPath string    `json:"mount_path"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// UnknownResource is a resource type this SDK does not know. It marshals
// back exactly as received.
type UnknownResource struct{ union.Raw }

func (FileResource) isResource()        {}
func (RepositoryResource) isResource()  {}
func (MemoryStoreResource) isResource() {}
func (UnknownResource) isResource()     {}

// Resource type discriminators.
const (
	ResourceTypeFile        = "file"
	ResourceTypeRepository  = "vcs_repository"
	ResourceTypeMemoryStore = "memory_store"
)

func (r FileResource) MarshalJSON() ([]byte, error) {
	type plain FileResource
	return union.Marshal(ResourceTypeFile, plain(r))
}

func (r RepositoryResource) MarshalJSON() ([]byte, error) {
	type plain RepositoryResource
	return union.Marshal(ResourceTypeRepository, plain(r))
}

func (r MemoryStoreResource) MarshalJSON() ([]byte, error) {
	type plain MemoryStoreResource
	return union.Marshal(ResourceTypeMemoryStore, plain(r))
}

func (r *RepositoryResource) UnmarshalJSON(data []byte) error {
	type plain RepositoryResource
	var w struct {
		plain
		Checkout json.RawMessage `json:"checkout"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*r = RepositoryResource(w.plain)
	var err error
	r.Checkout, err = DecodeCheckout(w.Checkout)
	return err
}

func decodeResource(data []byte) (Resource, error) {
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case ResourceTypeFile:
		var r FileResource
		return r, json.Unmarshal(data, &r)
	case ResourceTypeRepository:
		var r RepositoryResource
		return r, json.Unmarshal(data, &r)
	case ResourceTypeMemoryStore:
		var r MemoryStoreResource
		return r, json.Unmarshal(data, &r)
	}
	return UnknownResource{union.NewRaw(typ, data)}, nil
}

// Access is how a session may use a memory store. Values this SDK does not
// know are kept as they are.
type Access string

const (
	AccessReadWrite Access = "read_write" // the default
	AccessReadOnly  Access = "read_only"
)

// Checkout is what a repository resource checks out: BranchCheckout,
// CommitCheckout, or UnknownCheckout. It is used in requests and
// responses alike.
type Checkout interface{ isCheckout() }

// BranchCheckout checks out the head of a branch (type "branch").
type BranchCheckout struct {
	Name string `json:"name"` // 1 to 255 characters
}

// CommitCheckout checks out one commit (type "commit").
type CommitCheckout struct {
	SHA string `json:"sha"` // 7 to 64 hex characters
}

// UnknownCheckout is a checkout type this SDK does not know, kept as
// received.
type UnknownCheckout struct{ union.Raw }

func (BranchCheckout) isCheckout()  {}
func (CommitCheckout) isCheckout()  {}
func (UnknownCheckout) isCheckout() {}

func (c BranchCheckout) MarshalJSON() ([]byte, error) {
	type plain BranchCheckout
	return union.Marshal("branch", plain(c))
}

func (c CommitCheckout) MarshalJSON() ([]byte, error) {
	type plain CommitCheckout
	return union.Marshal("commit", plain(c))
}

// DecodeCheckout decodes a checkout; null or nothing decodes as nil. The
// deployments package uses it for its resource configurations.
func DecodeCheckout(data []byte) (Checkout, error) {
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "branch":
		var c BranchCheckout
		return c, json.Unmarshal(data, &c)
	case "commit":
		var c CommitCheckout
		return c, json.Unmarshal(data, &c)
	}
	return UnknownCheckout{union.NewRaw(typ, data)}, nil
}
