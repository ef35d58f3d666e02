// Command files stores a file with the Files API and uses it: it uploads a
// file streamed from disk with a progress report, lists and reads its
// metadata, downloads a file the platform wrote (when the target can make
// one), and deletes what it uploaded.
//
//	go run ./examples/files
//
// Without VENDOR_API_KEY it runs against the SDK's reference server, started
// in this process: no account, no network. With VENDOR_API_KEY set it calls
// the API at VENDOR_BASE_URL (default https://api.vendor.com), in the
// workspace VENDOR_WORKSPACE_ID if the key needs one, and deletes the file it
// uploaded.
package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/files"
	"github.com/agentplatform/agentplatform-go/platformtest"
)

func main() {
	log.SetFlags(0)
	if err := run(); err != nil {
		log.Fatal("files: ", err)
	}
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	var (
		srv    *platformtest.Server // nil against the real API
		client *agentplatform.Client
		err    error
	)
	if os.Getenv("VENDOR_API_KEY") != "" {
		fmt.Println("Target: the API at", cmp.Or(os.Getenv("VENDOR_BASE_URL"), "https://api.vendor.com"))
		client, err = agentplatform.NewClient() // reads VENDOR_API_KEY, VENDOR_BASE_URL, VENDOR_WORKSPACE_ID
	} else {
		if srv, err = platformtest.NewServer(); err != nil {
			return err
		}
		defer srv.Close()
		fmt.Println("Target: the embedded reference server at", srv.URL(), "(set VENDOR_API_KEY to use the real API)")
		client, err = srv.Client()
	}
	if err != nil {
		return err
	}
	defer client.Close()

	// A file on disk: 100,000 CSV rows, 2.6 MiB.
	path, err := writeSample()
	if err != nil {
		return err
	}
	defer os.RemoveAll(filepath.Dir(path))
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return err
	}

	// The upload streams the file: it is never held in memory. An *os.File
	// can seek, so an attempt that fails is retried from its start; Size
	// makes the request's Content-Length exact.
	var reported int64
	f, err := client.Files.Upload(ctx, files.UploadParams{
		Reader:    file,
		Filename:  filepath.Base(path),
		Size:      info.Size(),
		ExpiresIn: 24 * time.Hour, // deleted by the platform a day from now
		Progress: func(sent int64) {
			if sent-reported >= 1<<20 || sent == info.Size() {
				reported = sent
				fmt.Printf("  sent %4.1f MiB of %.1f\n", float64(sent)/(1<<20), float64(info.Size())/(1<<20))
			}
		},
	})
	if err != nil {
		return err
	}
	defer func() {
		if _, err := client.Files.Delete(context.Background(), f.ID); err != nil {
			log.Print("files: delete: ", err)
		}
	}()
	fmt.Printf("Uploaded %s: %s, %s, %d bytes, expires %s\n", f.ID, f.Filename, f.MimeType, f.SizeBytes, f.ExpiresAt.Format(time.RFC3339))

	// Metadata, and the list (newest first).
	got, err := client.Files.Get(ctx, f.ID)
	if err != nil {
		return err
	}
	fmt.Println("Get:", got.Filename, "downloadable:", got.Downloadable)
	n := 0
	for _, err := range client.Files.All(ctx, files.ListParams{}) {
		if err != nil {
			return err
		}
		n++
	}
	fmt.Println("Files in the workspace:", n)

	// An upload cannot be downloaded: only files the platform writes can
	// (a session's outputs). The embedded server makes one as a session
	// would.
	if _, err := client.Files.Download(ctx, f.ID); err != nil {
		fmt.Println("Download of the upload refused:", firstLine(err))
	}
	if srv == nil {
		return nil
	}
	id, err := srv.PutFile("summary.txt", "", strings.NewReader("rows: 100000\n"))
	if err != nil {
		return err
	}
	d, err := client.Files.Download(ctx, id)
	if err != nil {
		return err
	}
	defer d.Close()
	fmt.Printf("Downloading %s (%s, %d bytes): ", d.Filename, d.ContentType, d.Size)
	_, err = io.Copy(os.Stdout, d) // streamed as it arrives
	return err
}

// writeSample writes a CSV file of 100,000 rows in a new temporary
// directory and returns its path.
func writeSample() (string, error) {
	dir, err := os.MkdirTemp("", "files-example-")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "inventory.csv")
	out, err := os.Create(path)
	if err != nil {
		return "", err
	}
	if _, err := fmt.Fprintln(out, "id,item,quantity"); err != nil {
		return "", errors.Join(err, out.Close())
	}
	for i := range 100_000 {
		if _, err := fmt.Fprintf(out, "%06d,bolt M%d x %d mm,%d\n", i, 3+i%10, 10+i%90, i%500); err != nil {
			return "", errors.Join(err, out.Close())
		}
	}
	return path, out.Close()
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}
