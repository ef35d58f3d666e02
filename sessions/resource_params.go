package sessions

import (
	"fmt"
	"log/slog"

	"github.com/agentplatform/agentplatform-go/param"
)

// ResourceParam is a resource to mount, as session create and the
// deployments package send it: FileResourceParam, RepositoryResourceParam
// or MemoryStoreResourceParam.
type ResourceParam interface{ isResourceParam() }

// FileResourceParam mounts an uploaded file (type "file"). It is also the
// body of ResourcesService.Add.
type FileResourceParam struct {
	FileID string `json:"file_id"` // required: "file_…", 1 to 128 characters
	// MountPath is 1 to 4096 characters, starting with "/"; "" means
	// /mnt/session/uploads/<file_id>.
	MountPath string `json:"mount_path,omitzero"`
}

// RepositoryResourceParam checks out a source-code repository (type
// "vcs_repository").
//
// AuthorizationToken is a param.Secret: printing the struct with any fmt verb or
// logging it with log/slog shows "[redacted]" in its place; only the JSON
// request body carries it. The API never returns it.
type RepositoryResourceParam struct {
	URL string `json:"url"` // required: an absolute https URL, at most 2048 characters
	// AuthorizationToken lets the platform clone a private repository; 1
	// to 4096 characters, "" for none. Rotate it with
	// ResourcesService.Update.
	AuthorizationToken param.Secret `json:"authorization_token,omitzero"`
	// Checkout is nil for the repository's default branch.
	Checkout Checkout `json:"checkout,omitempty"`
	// MountPath is 1 to 4096 characters; "" means /workspace/<repo-name>.
	MountPath string `json:"mount_path,omitzero"`
}

// MemoryStoreResourceParam attaches a memory store (type "memory_store").
// Its mount path is derived from the store's name, under /mnt/memory/. The
// store must not be archived, and a session holds at most 8 stores.
type MemoryStoreResourceParam struct {
	MemoryStoreID string `json:"memory_store_id"`       // required: "memstore_…"
	Access        Access `json:"access,omitzero"`       // "" means AccessReadWrite
	Instructions  string `json:"instructions,omitzero"` // at most 4096 characters; "" for none
}

func (FileResourceParam) isResourceParam()        {}
func (RepositoryResourceParam) isResourceParam()  {}
func (MemoryStoreResourceParam) isResourceParam() {}

func (r FileResourceParam) MarshalJSON() ([]byte, error) {
	type plain FileResourceParam
	return paramVariant(string(ResourceTypeFile), plain(r))
}

func (r RepositoryResourceParam) MarshalJSON() ([]byte, error) {
	type plain RepositoryResourceParam
	return paramVariant(string(ResourceTypeRepository), plain(r))
}

// LogValue logs the resource with its token redacted. Without it, a
// log/slog JSON handler would encode the struct with encoding/json, which
// writes the token as the request body needs it.
func (r RepositoryResourceParam) LogValue() slog.Value {
	attrs := []slog.Attr{slog.String("type", string(ResourceTypeRepository)), slog.String("url", r.URL)}
	if r.AuthorizationToken != "" {
		attrs = append(attrs, slog.String("authorization_token", r.AuthorizationToken.String()))
	}
	if r.Checkout != nil {
		attrs = append(attrs, slog.Any("checkout", r.Checkout))
	}
	if r.MountPath != "" {
		attrs = append(attrs, slog.String("mount_path", r.MountPath))
	}
	return slog.GroupValue(attrs...)
}

func (r MemoryStoreResourceParam) MarshalJSON() ([]byte, error) {
	type plain MemoryStoreResourceParam
	return paramVariant(string(ResourceTypeMemoryStore), plain(r))
}

// LogValue logs the update with its token redacted.
func (p ResourceUpdateParams) LogValue() slog.Value {
	return slog.GroupValue(slog.String("authorization_token", p.AuthorizationToken.String()))
}

// LogValue logs the params through fmt, where param.Secret redacts itself: a
// log/slog JSON handler would otherwise encode them with encoding/json,
// which writes repository tokens as the request body needs them.
func (p CreateParams) LogValue() slog.Value {
	type plain CreateParams // no LogValue: fmt prints the fields
	return slog.StringValue(fmt.Sprintf("%+v", plain(p)))
}
