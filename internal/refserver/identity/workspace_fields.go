package identity

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Workspace field rules (docs/api-choices.md "Workspaces").

// inferenceGeos are the values of inference_geo (kit.InferenceGeos).
var inferenceGeos = kit.InferenceGeos

// dataResidency is a workspace's data_residency. allowedGeos nil means
// "unrestricted".
type dataResidency struct {
	allowedGeos  []string
	defaultGeo   string
	workspaceGeo string
}

func defaultResidency() dataResidency {
	return dataResidency{defaultGeo: "global", workspaceGeo: "us"}
}

// allowedGeos is allowed_inference_geos on the wire: the string
// "unrestricted" or a non-empty array of distinct inference geos. Its
// UnmarshalJSON enforces the whole rule so that a violation reports the
// field's full path like any type error.
type allowedGeos struct {
	geos []string // nil = unrestricted
}

func (allowedGeos) JSONDescription() string {
	return `"unrestricted" or a non-empty array of distinct values from ` + kit.QuoteList(inferenceGeos)
}

func (a allowedGeos) MarshalJSON() ([]byte, error) {
	if a.geos == nil {
		return []byte(`"unrestricted"`), nil
	}
	return json.Marshal(a.geos)
}

func (a *allowedGeos) UnmarshalJSON(data []byte) error {
	bad := &json.UnmarshalTypeError{Value: string(data), Type: reflect.TypeFor[allowedGeos]()}
	var s string
	if bytes.HasPrefix(data, []byte(`"`)) {
		if err := json.Unmarshal(data, &s); err != nil || s != "unrestricted" {
			return bad
		}
		a.geos = nil
		return nil
	}
	var geos []string
	if err := json.Unmarshal(data, &geos); err != nil || len(geos) == 0 {
		return bad
	}
	for i, g := range geos {
		if !slices.Contains(inferenceGeos, g) || slices.Contains(geos[:i], g) {
			return bad
		}
	}
	a.geos = geos
	return nil
}

type dataResidencyBody struct {
	AllowedInferenceGeos kit.Optional[allowedGeos] `json:"allowed_inference_geos"`
	DefaultInferenceGeo  kit.Optional[string]      `json:"default_inference_geo"`
	WorkspaceGeo         kit.Optional[string]      `json:"workspace_geo"`
}

// applyResidency merges a data_residency body into cur. Omitted and null
// fields keep their value. creating relaxes two rules: workspace_geo may be
// chosen (only "us" exists), and an omitted default_inference_geo follows
// the allowed list.
func applyResidency(cur dataResidency, body dataResidencyBody, creating bool) (dataResidency, error) {
	next := cur
	if g := body.WorkspaceGeo; g.Present() && g.Value != cur.workspaceGeo {
		if creating {
			return cur, kit.InvalidField("data_residency.workspace_geo", "must be `us`")
		}
		return cur, kit.InvalidField("data_residency.workspace_geo", "is immutable after creation")
	}
	if a := body.AllowedInferenceGeos; a.Present() {
		next.allowedGeos = a.Value.geos
	}
	if d := body.DefaultInferenceGeo; d.Present() {
		if !slices.Contains(inferenceGeos, d.Value) {
			return cur, kit.InvalidField("data_residency.default_inference_geo", "must be one of %s", kit.QuoteList(inferenceGeos))
		}
		next.defaultGeo = d.Value
	} else if creating && next.allowedGeos != nil && !slices.Contains(next.allowedGeos, next.defaultGeo) {
		next.defaultGeo = next.allowedGeos[0]
	}
	if next.allowedGeos != nil && !slices.Contains(next.allowedGeos, next.defaultGeo) {
		return cur, kit.InvalidField("data_residency.default_inference_geo", "must be one of data_residency.allowed_inference_geos")
	}
	return next, nil
}

var displayColorPattern = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)

func checkDisplayColor(c string) error {
	if !displayColorPattern.MatchString(c) {
		return kit.InvalidField("display_color", "must be a hex color of the form #RRGGBB")
	}
	return nil
}

var (
	externalKeyPattern = regexp.MustCompile(`^ekey_[A-Za-z0-9]{1,64}$`)
	kmsKeyARNPattern   = regexp.MustCompile(`^arn:aws:kms:[a-z]{2}(-[a-z]+)+-[0-9]+:[0-9]{12}:key/([A-Za-z0-9-]{1,128})$`)
)

// checkExternalKeyID validates the id form of the edition. On the cloud
// edition it must be a single-Region key; multi-Region key ids start with
// "mrk-". The same-account-and-Region rule needs an account and Region the
// server does not model.
func (s *Service) checkExternalKeyID(id string) error {
	if !s.cfg.cloud {
		if !externalKeyPattern.MatchString(id) {
			return kit.InvalidField("external_key_id", "must be an encryption key configuration id (`ekey_…`)")
		}
		return nil
	}
	m := kmsKeyARNPattern.FindStringSubmatch(id)
	if m == nil {
		return kit.InvalidField("external_key_id", "must be an AWS KMS key ARN (`arn:aws:kms:<region>:<account>:key/<key-id>`)")
	}
	if strings.HasPrefix(m[2], "mrk-") {
		return kit.InvalidField("external_key_id", "must be a single-Region key; multi-Region keys (`mrk-…`) are not supported")
	}
	return nil
}

const (
	maxTags        = 50
	maxTagKeyLen   = 128
	maxTagValueLen = 256
)

func checkTags(tags map[string]string) error {
	if len(tags) > maxTags {
		return kit.InvalidField("tags", "must have at most %d entries", maxTags)
	}
	keys := make([]string, 0, len(tags))
	for k := range tags {
		keys = append(keys, k)
	}
	slices.Sort(keys) // report the same offender every time
	for _, k := range keys {
		if n := utf8.RuneCountInString(k); n < 1 || n > maxTagKeyLen {
			return kit.InvalidField("tags", "keys must be between 1 and %d characters", maxTagKeyLen)
		}
		if len(k) >= len("vendor") && strings.EqualFold(k[:len("vendor")], "vendor") {
			return kit.InvalidField("tags", "key `%s` must not begin with `vendor`", k)
		}
		if utf8.RuneCountInString(tags[k]) > maxTagValueLen {
			return kit.InvalidField("tags."+k, "must be at most %d characters", maxTagValueLen)
		}
	}
	return nil
}

// workspaceJSON is the wire form of a workspace.
type workspaceJSON struct {
	Type          string            `json:"type"`
	ID            string            `json:"id"`
	Name          string            `json:"name"`
	ArchivedAt    *kit.Timestamp    `json:"archived_at"`
	CreatedAt     kit.Timestamp     `json:"created_at"`
	CompartmentID string            `json:"compartment_id"`
	DataResidency dataResidencyJSON `json:"data_residency"`
	DisplayColor  string            `json:"display_color"`
	ExternalKeyID *string           `json:"external_key_id"`
	Tags          map[string]string `json:"tags"`
	// UserProfileID is the attached user profile's id, null when none.
	UserProfileID *string `json:"user_profile_id"`
}

type dataResidencyJSON struct {
	AllowedInferenceGeos allowedGeos `json:"allowed_inference_geos"`
	DefaultInferenceGeo  string      `json:"default_inference_geo"`
	WorkspaceGeo         string      `json:"workspace_geo"`
}

// view copies a workspace into its wire form; the copy can be encoded after
// the lock is released.
func (w *workspace) view() workspaceJSON {
	v := workspaceJSON{
		Type:          "workspace",
		ID:            w.id,
		Name:          w.name,
		ArchivedAt:    kit.OptionalTimestamp(w.archivedAt),
		CreatedAt:     kit.Timestamp(w.createdAt),
		CompartmentID: w.compartmentID,
		DataResidency: dataResidencyJSON{
			AllowedInferenceGeos: allowedGeos{geos: slices.Clone(w.residency.allowedGeos)},
			DefaultInferenceGeo:  w.residency.defaultGeo,
			WorkspaceGeo:         w.residency.workspaceGeo,
		},
		DisplayColor: w.displayColor,
		Tags:         make(map[string]string, len(w.tags)),
	}
	if w.externalKeyID != "" {
		id := w.externalKeyID
		v.ExternalKeyID = &id
	}
	if w.userProfileID != "" {
		id := w.userProfileID
		v.UserProfileID = &id
	}
	for k, val := range w.tags {
		v.Tags[k] = val
	}
	return v
}
