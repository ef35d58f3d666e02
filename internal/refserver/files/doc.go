// Package files is the files family of the reference server: uploads,
// the file objects, their list, downloads and deletes, following
// docs/files-wire.md.
//
// # What it serves
//
// No beta value is needed, and every endpoint works inside the request's
// workspace (a file of another workspace is 404):
//
//   - POST /v1/files: a multipart/form-data upload with a file part and an
//     optional expires_in_seconds part. The route is a kit.Route with
//     RawBody: the pipeline authenticates the request and leaves the body
//     unread, and the handler reads the form as a stream, copying the
//     file part to a temporary file while hashing (SHA-256) and counting
//     it, so that neither the file nor the 32 MiB JSON body limit is
//     involved; one byte past the size limit (Deps.MaxFileSize, 500 MB by
//     default) is a 413. The request log keeps no body for it.
//   - GET /v1/files: newest first, paged by cursor, filtered by scope_id
//     (the session that created a file) and ids.
//   - GET /v1/files/{file_id} and DELETE /v1/files/{file_id}.
//   - GET /v1/files/{file_id}/content: the bytes of a downloadable file,
//     streamed from disk after the headers. Uploaded files are not
//     downloadable; files the platform creates are (Service.Put, the test
//     hook behind the server's PutFile).
//
// An expired file is 404 on every endpoint and unlisted from the moment
// its expires_at passes on the server's clock; SweepLocked, called from
// the server's tick, removes its bytes.
//
// # Idempotency
//
// An upload is known only once its body is read, so the family calls
// kit.Call.ClaimIdempotency then, with a digest of what the form says (the
// file's name, part type and SHA-256, and the expiry), not of its bytes on
// the wire: a retry with another multipart boundary is the same request.
// A replay stores nothing; the same key with another file is 400.
//
// # In the server
//
// New builds the family from Deps: the server's clock and ids (kit.Deps),
// Lock, the directory for the bytes and the size limit. Service.Routes
// are its endpoints. Sessions and deployments use FileLocked (a file
// resource must name a live file of the workspace) and the scripted
// agent's read tool uses ContentLocked.
//
// # Lock discipline and storage
//
// The file records are guarded by Deps.Lock, the server's one lock, since
// sessions check files under it. Bytes never move under the lock: an
// upload streams to its temporary file first and takes the lock only to
// insert the record; a download opens the file under the lock and copies
// without it (a delete meanwhile removes the name, and the open handle
// still reads). The directory is Deps.Dir or, without one, a temporary
// directory made on first use; Close removes the stored bytes and that
// directory.
package files
