package memorystores

import (
	"encoding/json"
	"errors"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// Error types of the memory endpoints (HTTP 409). They arrive as an
// *apierror.Error whose Type is one of these; PathConflict and
// IsPreconditionFailed recognise them.
const (
	// TypePathConflict: the path of a create or rename is taken by another
	// memory, at that path or above or below it.
	TypePathConflict apierror.Type = "memory_path_conflict_error"
	// TypePreconditionFailed: the content changed since the hash the write
	// was conditioned on.
	TypePreconditionFailed apierror.Type = "memory_precondition_failed_error"
)

// PathConflictError is the detail of a memory_path_conflict_error: which
// memory is in the way.
type PathConflictError struct {
	ConflictingMemoryID string // the memory occupying the path
	ConflictingPath     string // its path: the requested one, or one above or below it
	Err                 *apierror.Error
}

func (e *PathConflictError) Error() string { return e.Err.Error() }

// Unwrap returns the API error, so errors.Is and errors.As see through it.
func (e *PathConflictError) Unwrap() error { return e.Err }

// PathConflict reports whether err is a memory path conflict and, if so,
// which memory holds the path. The details travel as extra keys of the
// error body, which apierror.Error keeps raw in Body; this reads them.
//
//	_, err := client.MemoryStores.Memories.Create(ctx, storeID, params)
//	if c, ok := memorystores.PathConflict(err); ok {
//		log.Printf("%s is taken by %s", c.ConflictingPath, c.ConflictingMemoryID)
//	}
func PathConflict(err error) (*PathConflictError, bool) {
	var apiErr *apierror.Error
	if !errors.As(err, &apiErr) || apiErr.Type != TypePathConflict {
		return nil, false
	}
	var body struct {
		Error struct {
			ConflictingMemoryID string `json:"conflicting_memory_id"`
			ConflictingPath     string `json:"conflicting_path"`
		} `json:"error"`
	}
	// A body without the details (a proxy rewrote it, say) still reports
	// the conflict, with empty fields.
	_ = json.Unmarshal(apiErr.Body, &body)
	return &PathConflictError{
		ConflictingMemoryID: body.Error.ConflictingMemoryID,
		ConflictingPath:     body.Error.ConflictingPath,
		Err:                 apiErr,
	}, true
}

// IsPreconditionFailed reports whether err is a failed content_sha256
// precondition (MemoryUpdateParams.Precondition or
// MemoryDeleteParams.ExpectedContentSHA256): the memory changed meanwhile;
// read it again and decide.
func IsPreconditionFailed(err error) bool {
	var apiErr *apierror.Error
	return errors.As(err, &apiErr) && apiErr.Type == TypePreconditionFailed
}
