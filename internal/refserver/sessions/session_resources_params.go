package sessions

import (
	"encoding/json"
	"net/url"
	"path"
	"strings"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Session resource request forms (docs/managed-agents-wire.md 3.9). Session create and deployments accept the same forms
// (resourceParam); a deployment stores them, echoes them back minus the
// token, and hands them to each session it creates. Only the rules that
// need no state are checked here; attachResourcesLocked
// (session_resources_wire.go) checks the rest when a session is created.

const (
	maxResources          = 500 // deployments' limit; sessions: **choice**, the same
	maxMemoryStoresPerSsn = 8
	maxMountPath          = 4096
	maxAuthorizationToken = 4096
	maxRepositoryURL      = 2048
	maxInstructions       = 4096
)

var (
	resourceTypes = []string{"file", "vcs_repository", "memory_store"}
	accessModes   = []string{"read_write", "read_only"}
)

// checkout is a repository checkout: a branch name or a commit sha.
type checkout struct {
	typ  string // "branch" or "commit"
	name string // branch
	sha  string // commit
}

type branchJSON struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

type commitJSON struct {
	Type string `json:"type"`
	SHA  string `json:"sha"`
}

// checkoutView renders c, or null (the repository's default branch).
func checkoutView(c *checkout) any {
	switch {
	case c == nil:
		return nil
	case c.typ == "branch":
		return branchJSON{Type: "branch", Name: c.name}
	}
	return commitJSON{Type: "commit", SHA: c.sha}
}

// resourceParam is one validated request form. Optional fields are nil
// when they were omitted or null, which is how a deployment echoes them.
type resourceParam struct {
	typ           string
	fileID        string  // file
	url           string  // vcs_repository
	token         *string // vcs_repository; write-only, never rendered
	checkout      *checkout
	mountPath     *string // file, vcs_repository
	memoryStoreID string  // memory_store
	access        *string
	instructions  *string
}

type fileConfigJSON struct {
	Type      string  `json:"type"`
	FileID    string  `json:"file_id"`
	MountPath *string `json:"mount_path"`
}

type repoConfigJSON struct {
	Type      string  `json:"type"`
	URL       string  `json:"url"`
	Checkout  any     `json:"checkout"`
	MountPath *string `json:"mount_path"`
}

type memoryConfigJSON struct {
	Type          string  `json:"type"`
	MemoryStoreID string  `json:"memory_store_id"`
	Access        *string `json:"access"`
	Instructions  *string `json:"instructions"`
}

// configView is a deployment's resource config: the request minus the
// token, optional fields null when not sent (docs/managed-agents-wire.md
// 3.9).
func (p resourceParam) configView() any {
	switch p.typ {
	case "file":
		return fileConfigJSON{Type: p.typ, FileID: p.fileID, MountPath: p.mountPath}
	case "vcs_repository":
		return repoConfigJSON{Type: p.typ, URL: p.url, Checkout: checkoutView(p.checkout), MountPath: p.mountPath}
	}
	return memoryConfigJSON{Type: p.typ, MemoryStoreID: p.memoryStoreID, Access: p.access, Instructions: p.instructions}
}

type fileResourceBody struct {
	Type      kit.Optional[string] `json:"type"`
	FileID    kit.Optional[string] `json:"file_id"`
	MountPath kit.Optional[string] `json:"mount_path"`
}

type repoResourceBody struct {
	Type               kit.Optional[string]          `json:"type"`
	URL                kit.Optional[string]          `json:"url"`
	AuthorizationToken kit.Optional[string]          `json:"authorization_token"`
	Checkout           kit.Optional[json.RawMessage] `json:"checkout"`
	MountPath          kit.Optional[string]          `json:"mount_path"`
}

type memoryResourceBody struct {
	Type          kit.Optional[string] `json:"type"`
	MemoryStoreID kit.Optional[string] `json:"memory_store_id"`
	Access        kit.Optional[string] `json:"access"`
	Instructions  kit.Optional[string] `json:"instructions"`
}

type checkoutBody struct {
	Type kit.Optional[string] `json:"type"`
	Name kit.Optional[string] `json:"name"`
	SHA  kit.Optional[string] `json:"sha"`
}

// parseResourceParams reads a resources array at path (at most 500). Rules
// that need state (memory stores, the environment, mount path clashes) are
// attachResourcesLocked's.
func parseResourceParams(path string, raw json.RawMessage) ([]resourceParam, error) {
	items, err := kit.ArrayAt(path, raw)
	if err != nil {
		return nil, err
	}
	if err := kit.CheckCount(path, len(items), 0, maxResources); err != nil {
		return nil, err
	}
	out := make([]resourceParam, 0, len(items))
	for i, item := range items {
		p, err := parseResourceParam(kit.IndexPath(path, i), item)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func parseResourceParam(p string, raw json.RawMessage) (resourceParam, error) {
	typ, err := kit.TypeAt(p, raw)
	if err != nil {
		return resourceParam{}, err
	}
	switch typ {
	case "file":
		return parseFileResource(p, raw)
	case "vcs_repository":
		return parseRepoResource(p, raw)
	case "memory_store":
		return parseMemoryResource(p, raw)
	}
	return resourceParam{}, kit.BadType(p, resourceTypes...)
}

// parseFileResource reads the file form, also the whole body of Add
// Session Resource (path "").
func parseFileResource(p string, raw json.RawMessage) (resourceParam, error) {
	var body fileResourceBody
	if err := kit.DecodeAt(p, raw, &body); err != nil {
		return resourceParam{}, err
	}
	if err := kit.Required(kit.JoinPath(p, "type"), body.Type); err != nil {
		return resourceParam{}, err
	}
	if err := kit.OneOf(kit.JoinPath(p, "type"), body.Type.Value, "file"); err != nil {
		return resourceParam{}, err
	}
	out := resourceParam{typ: "file"}
	idPath := kit.JoinPath(p, "file_id")
	if err := kit.Required(idPath, body.FileID); err != nil {
		return out, err
	}
	if err := checkFileID(idPath, body.FileID.Value); err != nil {
		return out, err
	}
	out.fileID = body.FileID.Value
	mount, err := parseMountPath(kit.JoinPath(p, "mount_path"), body.MountPath)
	out.mountPath = mount
	return out, err
}

func parseRepoResource(p string, raw json.RawMessage) (resourceParam, error) {
	var body repoResourceBody
	if err := kit.DecodeAt(p, raw, &body); err != nil {
		return resourceParam{}, err
	}
	out := resourceParam{typ: "vcs_repository"}
	urlPath := kit.JoinPath(p, "url")
	if err := kit.Required(urlPath, body.URL); err != nil {
		return out, err
	}
	if err := checkRepositoryURL(urlPath, body.URL.Value); err != nil {
		return out, err
	}
	out.url = body.URL.Value
	tokenPath := kit.JoinPath(p, "authorization_token")
	if err := kit.NotNull(tokenPath, body.AuthorizationToken); err != nil {
		return out, err
	}
	if body.AuthorizationToken.Set {
		if err := kit.CheckLength(tokenPath, body.AuthorizationToken.Value, 1, maxAuthorizationToken); err != nil {
			return out, err
		}
		out.token = kit.StringPtr(body.AuthorizationToken.Value)
	}
	if body.Checkout.Present() {
		c, err := parseCheckout(kit.JoinPath(p, "checkout"), body.Checkout.Value)
		if err != nil {
			return out, err
		}
		out.checkout = c
	}
	mount, err := parseMountPath(kit.JoinPath(p, "mount_path"), body.MountPath)
	out.mountPath = mount
	return out, err
}

func parseMemoryResource(p string, raw json.RawMessage) (resourceParam, error) {
	var body memoryResourceBody
	if err := kit.DecodeAt(p, raw, &body); err != nil {
		return resourceParam{}, err
	}
	out := resourceParam{typ: "memory_store"}
	idPath := kit.JoinPath(p, "memory_store_id")
	if err := kit.Required(idPath, body.MemoryStoreID); err != nil {
		return out, err
	}
	// Whether the id names a store is answered by the lookup (404,
	// docs/managed-agents-wire.md 1.2), not by a format rule.
	out.memoryStoreID = body.MemoryStoreID.Value
	if body.Access.Present() {
		if err := kit.OneOf(kit.JoinPath(p, "access"), body.Access.Value, accessModes...); err != nil {
			return out, err
		}
		out.access = kit.StringPtr(body.Access.Value)
	}
	if body.Instructions.Present() {
		if err := kit.CheckLength(kit.JoinPath(p, "instructions"), body.Instructions.Value, 0, maxInstructions); err != nil {
			return out, err
		}
		out.instructions = kit.StringPtr(body.Instructions.Value)
	}
	return out, nil
}

func parseCheckout(p string, raw json.RawMessage) (*checkout, error) {
	typ, err := kit.TypeAt(p, raw)
	if err != nil {
		return nil, err
	}
	if typ != "branch" && typ != "commit" {
		return nil, kit.BadType(p, "branch", "commit")
	}
	var body checkoutBody
	if err := kit.DecodeAt(p, raw, &body); err != nil {
		return nil, err
	}
	if typ == "branch" {
		if body.SHA.Set {
			return nil, kit.InvalidField(kit.JoinPath(p, "sha"), "unknown field")
		}
		np := kit.JoinPath(p, "name")
		if err := kit.Required(np, body.Name); err != nil {
			return nil, err
		}
		if err := kit.CheckLength(np, body.Name.Value, 1, 255); err != nil {
			return nil, err
		}
		return &checkout{typ: typ, name: body.Name.Value}, nil
	}
	if body.Name.Set {
		return nil, kit.InvalidField(kit.JoinPath(p, "name"), "unknown field")
	}
	sp := kit.JoinPath(p, "sha")
	if err := kit.Required(sp, body.SHA); err != nil {
		return nil, err
	}
	if err := kit.CheckLength(sp, body.SHA.Value, 7, 64); err != nil {
		return nil, err
	}
	if strings.Trim(strings.ToLower(body.SHA.Value), "0123456789abcdef") != "" {
		return nil, kit.InvalidField(sp, "must be a hexadecimal commit id")
	}
	return &checkout{typ: typ, sha: body.SHA.Value}, nil
}

// parseMountPath reads an optional, nullable mount path: 1–4096 characters,
// absolute.
func parseMountPath(p string, o kit.Optional[string]) (*string, error) {
	if !o.Present() {
		return nil, nil
	}
	if err := kit.CheckLength(p, o.Value, 1, maxMountPath); err != nil {
		return nil, err
	}
	if !strings.HasPrefix(o.Value, "/") {
		return nil, kit.InvalidField(p, "must start with `/`")
	}
	switch {
	case strings.ContainsRune(o.Value, 0):
		return nil, kit.InvalidField(p, "must not contain a NUL character")
	case strings.Contains(o.Value, "//"):
		return nil, kit.InvalidField(p, "must not contain an empty segment (`//`)")
	}
	for seg := range strings.SplitSeq(o.Value, "/") {
		if seg == "." || seg == ".." {
			return nil, kit.InvalidField(p, "must not contain a `.` or `..` segment")
		}
	}
	return kit.StringPtr(o.Value), nil
}

func checkRepositoryURL(p, raw string) error {
	if err := kit.CheckLength(p, raw, 1, maxRepositoryURL); err != nil {
		return err
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return kit.InvalidField(p, "must be an absolute https URL")
	}
	return nil
}

// repositoryMountPath is a repository's default mount path:
// /workspace/<repo-name>, the last URL path segment without ".git"
// (docs/managed-agents-wire.md 3.9); a URL without a path segment uses its host (**choice**).
func repositoryMountPath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "/workspace"
	}
	name := strings.TrimSuffix(path.Base(strings.TrimRight(u.Path, "/")), ".git")
	if name == "" || name == "." || name == "/" {
		name = u.Hostname()
	}
	return "/workspace/" + name
}
