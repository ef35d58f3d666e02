package memorystores

import (
	"encoding/json"
	"errors"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// Errors of the memory endpoints (HTTP 409) that a caller handles in
// code. The error a call returns matches them with errors.Is, and is
// still an *apierror.Error for errors.As.
var (
	// ErrPathConflict: the path of a create or rename is taken by another
	// memory, at that path or above or below it. errors.As with a
	// *PathConflictError tells which memory.
	ErrPathConflict = errors.New("memorystores: memory path conflict")
	// ErrPreconditionFailed: the content changed since the hash the write
	// or delete was conditioned on (MemoryUpdateParams.Precondition,
	// MemoryDeleteParams.ExpectedContentSHA256); read the memory again and
	// decide.
	ErrPreconditionFailed = errors.New("memorystores: memory precondition failed")
)

// Error types of the API behind the sentinels.
const (
	typePathConflict       apierror.Type = "memory_path_conflict_error"
	typePreconditionFailed apierror.Type = "memory_precondition_failed_error"
)

// PathConflictError is the error of a create or rename whose path is
// taken: which memory is in the way.
//
//	_, err := client.MemoryStores.Memories.Create(ctx, storeID, params)
//	var c *memorystores.PathConflictError
//	if errors.As(err, &c) {
//		log.Printf("%s is taken by %s", c.ConflictingPath, c.ConflictingMemoryID)
//	}
//
// A body without the details (a proxy rewrote it, say) still gives a
// PathConflictError, with empty fields.
type PathConflictError struct {
	ConflictingMemoryID string // the memory occupying the path
	ConflictingPath     string // its path: the requested one, or one above or below it
	Err                 *apierror.Error
}

func (e *PathConflictError) Error() string { return e.Err.Error() }

// Unwrap returns the API error, so that errors.As finds it.
func (e *PathConflictError) Unwrap() error { return e.Err }

// Is reports whether target is ErrPathConflict.
func (e *PathConflictError) Is(target error) bool { return target == ErrPathConflict }

// preconditionError is the error of a write or delete whose precondition
// failed; it carries nothing beyond the API error.
type preconditionError struct{ err *apierror.Error }

func (e *preconditionError) Error() string        { return e.err.Error() }
func (e *preconditionError) Unwrap() error        { return e.err }
func (e *preconditionError) Is(target error) bool { return target == ErrPreconditionFailed }

// classify returns err, an error of a memory call, as a *PathConflictError
// or a precondition error when it is one, unchanged otherwise. The
// conflict's details travel as extra members of the error body, which
// apierror.Error keeps raw in Body.
func classify(err error) error {
	var apiErr *apierror.Error
	if !errors.As(err, &apiErr) {
		return err
	}
	switch apiErr.Type {
	case typePathConflict:
		var body struct {
			Error struct {
				ConflictingMemoryID string `json:"conflicting_memory_id"`
				ConflictingPath     string `json:"conflicting_path"`
			} `json:"error"`
		}
		_ = json.Unmarshal(apiErr.Body, &body)
		return &PathConflictError{
			ConflictingMemoryID: body.Error.ConflictingMemoryID,
			ConflictingPath:     body.Error.ConflictingPath,
			Err:                 apiErr,
		}
	case typePreconditionFailed:
		return &preconditionError{apiErr}
	}
	return err
}
