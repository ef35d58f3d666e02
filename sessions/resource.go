package sessions

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/wire"
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
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
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
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
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
	Instructions string `json:"instructions,omitzero"`
	// MountPath is derived from the store's name, under /mnt/memory/.
	MountPath string    `json:"mount_path"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownResource is a resource type this SDK does not know. It marshals
// back exactly as received.
type UnknownResource struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownResource) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

func (FileResource) isResource()        {}
func (RepositoryResource) isResource()  {}
func (MemoryStoreResource) isResource() {}
func (UnknownResource) isResource()     {}

// ResourceType is the "type" of a resource. Values this SDK does not know
// are kept as they are (UnknownResource).
type ResourceType string

// Resource types.
const (
	ResourceTypeFile        ResourceType = "file"
	ResourceTypeRepository  ResourceType = "vcs_repository"
	ResourceTypeMemoryStore ResourceType = "memory_store"
)

type (
	plainFileResource        FileResource
	plainRepositoryResource  RepositoryResource
	plainMemoryStoreResource MemoryStoreResource
	plainBranchCheckout      BranchCheckout
	plainCommitCheckout      CommitCheckout
)

// MarshalJSON writes the resource's wire object, "type" first.
func (r FileResource) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(ResourceTypeFile), plainFileResource(r))
}

// UnmarshalJSON decodes the resource's wire object; "type" is not kept.
func (r *FileResource) UnmarshalJSON(data []byte) error {
	*r = FileResource{}
	return decodeVariant(data, (*plainFileResource)(r))
}

// MarshalJSON writes the resource's wire object, "type" first.
func (r RepositoryResource) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(ResourceTypeRepository), plainRepositoryResource(r))
}

// UnmarshalJSON decodes the resource's wire object; "type" is not kept.
func (r *RepositoryResource) UnmarshalJSON(data []byte) error {
	*r = RepositoryResource{}
	return decodeVariant(data, (*plainRepositoryResource)(r), unions)
}

// MarshalJSON writes the resource's wire object, "type" first.
func (r MemoryStoreResource) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(ResourceTypeMemoryStore), plainMemoryStoreResource(r))
}

// UnmarshalJSON decodes the resource's wire object; "type" is not kept.
func (r *MemoryStoreResource) UnmarshalJSON(data []byte) error {
	*r = MemoryStoreResource{}
	return decodeVariant(data, (*plainMemoryStoreResource)(r))
}

func decodeResourceUnion(typ string, obj []byte) (Resource, error) {
	switch ResourceType(typ) {
	case ResourceTypeFile:
		p, err := newVariant[plainFileResource](obj)
		if err != nil {
			return nil, err
		}
		return FileResource(*p), nil
	case ResourceTypeRepository:
		p, err := newVariant[plainRepositoryResource](obj, unions)
		if err != nil {
			return nil, err
		}
		return RepositoryResource(*p), nil
	case ResourceTypeMemoryStore:
		p, err := newVariant[plainMemoryStoreResource](obj)
		if err != nil {
			return nil, err
		}
		return MemoryStoreResource(*p), nil
	}
	return UnknownResource{Type: typ, JSON: canonical(obj)}, nil
}

// resourceValue is one resource, decoded into its variant while the
// pipeline decodes the body, so that a resource the SDK cannot read fails
// the call like any other malformed body.
type resourceValue struct{ r Resource }

func (v *resourceValue) UnmarshalJSON(data []byte) (err error) {
	v.r, err = decodeUnion(data, decodeResourceUnion)
	return err
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
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// CommitCheckout checks out one commit (type "commit").
type CommitCheckout struct {
	SHA string `json:"sha"` // 7 to 64 hex characters
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownCheckout is a checkout type this SDK does not know, kept as
// received.
type UnknownCheckout struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownCheckout) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

func (BranchCheckout) isCheckout()  {}
func (CommitCheckout) isCheckout()  {}
func (UnknownCheckout) isCheckout() {}

// MarshalJSON writes the checkout's wire object, "type" first.
func (c BranchCheckout) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("branch", plainBranchCheckout(c))
}

// UnmarshalJSON decodes the checkout's wire object; "type" is not kept.
func (c *BranchCheckout) UnmarshalJSON(data []byte) error {
	*c = BranchCheckout{}
	return decodeVariant(data, (*plainBranchCheckout)(c))
}

// MarshalJSON writes the checkout's wire object, "type" first.
func (c CommitCheckout) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("commit", plainCommitCheckout(c))
}

// UnmarshalJSON decodes the checkout's wire object; "type" is not kept.
func (c *CommitCheckout) UnmarshalJSON(data []byte) error {
	*c = CommitCheckout{}
	return decodeVariant(data, (*plainCommitCheckout)(c))
}

func decodeCheckoutUnion(typ string, obj []byte) (Checkout, error) {
	switch typ {
	case "branch":
		p, err := newVariant[plainBranchCheckout](obj)
		if err != nil {
			return nil, err
		}
		return BranchCheckout(*p), nil
	case "commit":
		p, err := newVariant[plainCommitCheckout](obj)
		if err != nil {
			return nil, err
		}
		return CommitCheckout(*p), nil
	}
	return UnknownCheckout{Type: typ, JSON: canonical(obj)}, nil
}

// DecodeCheckout decodes a checkout; null or nothing decodes as nil. The
// deployments package uses it for its resource configurations.
func DecodeCheckout(data []byte) (Checkout, error) {
	return decodeUnion(data, decodeCheckoutUnion)
}
