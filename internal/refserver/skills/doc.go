// Package skills is the reference server's Skills family
// (docs/skills-wire.md): custom skills uploaded as multipart forms of files
// (or one zip archive), their immutable versions, and the download of a
// version as a zip archive.
//
// An upload is read as a stream (its route is a kit.Route with RawBody) and
// held in memory up to the platform's size limit, skillmd.MaxTotalBytes
// (8 MiB): the bytes past it are refused as they arrive, with a 413. The
// manifest rules are those of package internal/skillmd, which the SDK
// checks with too.
//
// The family's state is guarded by the server's lock (Deps.Lock), because
// the agents family checks an agent's custom skills under it:
// Service.ResolveLocked returns the skill's name and, for a reference
// without a version, its latest version id.
package skills
