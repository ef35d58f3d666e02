// Package memorystores manages memory stores (docs/managed-agents-wire.md
// 10): named stores of text memories that sessions mount as files, the
// memories inside them, and the version history those memories leave.
//
//	store, err := client.MemoryStores.Create(ctx, memorystores.CreateParams{Name: "User Preferences"})
//	mem, err := client.MemoryStores.Memories.Create(ctx, store.ID, memorystores.MemoryCreateParams{
//		Path: "/projects/foo/notes.md", Content: "All reports use ISO-8601 dates.",
//	})
//	// Conditional write: fails with ErrPreconditionFailed if someone changed it meanwhile.
//	mem, err = client.MemoryStores.Memories.Update(ctx, store.ID, mem.ID, memorystores.MemoryUpdateParams{
//		Content:      new("All reports use ISO-8601 dates and UTC."),
//		Precondition: &memorystores.Precondition{ContentSHA256: mem.ContentSHA256},
//	})
//	if errors.Is(err, memorystores.ErrPreconditionFailed) { … read it again … }
//	var conflict *memorystores.PathConflictError
//	if errors.As(err, &conflict) { … conflict.ConflictingMemoryID … }
//
//	// One directory level at a time: deeper memories come back as *MemoryPrefix.
//	for item, err := range client.MemoryStores.Memories.All(ctx, store.ID,
//		memorystores.MemoryListParams{PathPrefix: "/projects/", Depth: 1}) { … }
//
//	for v, err := range client.MemoryStores.Versions.All(ctx, store.ID,
//		memorystores.VersionListParams{MemoryID: mem.ID}) { … } // newest first
//
// Actor and ListItem are sealed interfaces whose Unknown variants keep the
// JSON of a kind newer than this SDK; every response type keeps members it
// does not know in its Extra field, so json.Marshal writes it back as the
// API sent it (a null member may be left out).
//
// Store methods are on Service, memory methods on Service.Memories, version
// methods on Service.Versions, mirroring the URL paths. Archived stores are
// read-only: writes to them fail with 409. Every call sends the
// vendor-beta value "agent-memory-2026-07-22".
package memorystores
