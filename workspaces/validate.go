package workspaces

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/check"
)

// Local validation: the rules of docs/api-choices.md "Workspaces" that need
// no server state, with the server's field names and messages. Geo values
// are not checked (a newer server may accept more), nor is the form of
// external_key_id, which depends on the edition the server runs.
const (
	maxNameLength = 255
	maxTags       = 50
	maxTagKey     = 128
	maxTagValue   = 256
	reservedTag   = "vendor"
	maxListLimit  = 1000
	maxListIDs    = 100
)

func (p *ListParams) validate() error {
	if len(p.IDs) > maxListIDs {
		return &apierror.ValidationError{Field: "ids", Rule: "must have at most " + strconv.Itoa(maxListIDs) + " values"}
	}
	return check.PrefixedIDs("ids", p.IDs, "wrkspc_", "a workspace id")
}

func (p *CreateParams) validate() error {
	if err := check.Length("name", p.Name, 1, maxNameLength); err != nil {
		return err
	}
	var allowed AllowedGeos
	var def Geo
	if r := p.DataResidency; r != nil {
		allowed, def = r.AllowedInferenceGeos, r.DefaultInferenceGeo
	}
	if err := validateSettings(p.DisplayColor, allowed, def, p.Tags); err != nil {
		return err
	}
	return validateUserProfileID(p.UserProfileID)
}

// validateUserProfileID checks the id's prefix, as the server does (after
// the other settings).
func validateUserProfileID(id string) error {
	if id != "" && !strings.HasPrefix(id, "uprof_") {
		return &apierror.ValidationError{Field: "user_profile_id", Rule: "must be a user profile id (`uprof_…`)"}
	}
	return nil
}

func (p *UpdateParams) validate() error {
	if err := check.OptionalLength("name", p.Name, 1, maxNameLength); err != nil {
		return err
	}
	var allowed AllowedGeos
	var def Geo
	if r := p.DataResidency; r != nil {
		allowed, def = r.AllowedInferenceGeos, r.DefaultInferenceGeo
	}
	if err := validateSettings(p.DisplayColor, allowed, def, p.Tags); err != nil {
		return err
	}
	return validateUserProfileID(p.UserProfileID)
}

// validateSettings checks what create and update share, in the server's
// order: the color, data residency, then the tags.
func validateSettings(color string, allowed AllowedGeos, def Geo, tags map[string]string) error {
	if err := validateColor(color); err != nil {
		return err
	}
	if err := validateResidency(allowed, def); err != nil {
		return err
	}
	return validateTags(tags)
}

func validateColor(c string) error {
	if c == "" {
		return nil
	}
	if check.HexColor("display_color", c) != nil {
		return &apierror.ValidationError{Field: "display_color", Rule: "must be a hex color of the form #RRGGBB"}
	}
	return nil
}

// validateResidency checks what one request decides on its own: a list of
// allowed geos is non-empty and has no repeats, and a default sent with it
// is one of them. A default sent alone is checked against the stored list,
// by the server.
func validateResidency(allowed AllowedGeos, def Geo) error {
	if allowed.Unrestricted || allowed.Geos == nil {
		return nil
	}
	geos := allowed.Geos
	for i, g := range geos {
		if slices.Contains(geos[:i], g) {
			geos = nil
			break
		}
	}
	if len(geos) == 0 {
		return &apierror.ValidationError{Field: "data_residency.allowed_inference_geos", Rule: "must be \"unrestricted\" or a non-empty array of distinct values from `global`, `us`"}

	}
	if def != "" && !slices.Contains(geos, def) {
		return &apierror.ValidationError{Field: "data_residency.default_inference_geo", Rule: "must be one of data_residency.allowed_inference_geos"}
	}
	return nil
}

// validateTags: at most 50, keys of 1 to 128 characters not beginning with
// "vendor" in any case, values of at most 256 characters. Keys are checked
// in sorted order, as the server does, so the same map reports the same key.
func validateTags(tags map[string]string) error {
	if len(tags) > maxTags {
		return &apierror.ValidationError{Field: "tags", Rule: "must have at most " + strconv.Itoa(maxTags) + " entries"}
	}
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		if n := utf8.RuneCountInString(k); n < 1 || n > maxTagKey {
			return &apierror.ValidationError{Field: "tags", Rule: "keys must be between 1 and " + strconv.Itoa(maxTagKey) + " characters"}
		}
		if len(k) >= len(reservedTag) && strings.EqualFold(k[:len(reservedTag)], reservedTag) {
			return &apierror.ValidationError{Field: "tags", Rule: "key `" + k + "` must not begin with `" + reservedTag + "`"}
		}
		if err := check.Length("tags."+k, tags[k], 0, maxTagValue); err != nil {
			return err
		}
	}
	return nil
}
