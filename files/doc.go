// Package files stores files once so that later requests can refer to them
// by id: a session's file resource mounts one, a Messages content block can
// name one.
//
//	f, err := client.Files.Upload(ctx, files.UploadParams{Reader: r, Filename: "report.pdf"})
//	for f, err := range client.Files.All(ctx, files.ListParams{}) { … } // newest first
//	d, err := client.Files.Download(ctx, id) // only files the platform wrote
//	defer d.Close()
//
// Uploads and downloads stream: the file is never held in memory, whatever
// its size. An upload is retried like any other call when its Reader can
// seek back to where it started (an *os.File, a *bytes.Reader); one that
// cannot is not sent twice, and a failure after its bytes began to go out
// is reported as ErrNotRewindable. docs/files-wire.md describes the wire.
package files
