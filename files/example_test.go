package files_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/agentplatform/agentplatform-go/files"
	"github.com/agentplatform/agentplatform-go/platformtest"
)

// Upload a file, find it in the list, and download a file the platform
// wrote. The example uses platformtest, the in-process reference server; a
// program calls agentplatform.NewClient() instead.
func Example() {
	srv, err := platformtest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()

	// The Reader is streamed, never held in memory: an *os.File works the
	// same, and since it can seek, a failed attempt is retried.
	data := "name,qty\nbolts,40\n"
	f, err := client.Files.Upload(ctx, files.UploadParams{
		Reader:   strings.NewReader(data),
		Filename: "inventory.csv",
		Size:     int64(len(data)), // optional: sent as the Content-Length
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(f.Filename, f.MimeType, f.SizeBytes, "downloadable:", f.Downloadable)

	for f, err := range client.Files.All(ctx, files.ListParams{}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("listed:", f.Filename)
	}

	// Only files the platform wrote can be downloaded; PutFile makes one
	// as a session's code would.
	id, err := srv.PutFile("report.txt", "", strings.NewReader("all bolts counted\n"))
	if err != nil {
		log.Fatal(err)
	}
	d, err := client.Files.Download(ctx, id)
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	content, err := io.ReadAll(d)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s (%s): %s", d.Filename, d.ContentType, content)

	// Output:
	// inventory.csv text/csv 18 downloadable: false
	// listed: inventory.csv
	// report.txt (text/plain): all bolts counted
}
