package refserver_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// The Files API over raw HTTP (docs/files-wire.md): the object, the upload
// rules and limits, download, delete, list, expiry, idempotency and
// workspaces.

func newFilesEnv(t *testing.T, opts ...refserver.Option) *env {
	t.Helper()
	return newEnv(t, append([]refserver.Option{refserver.WithFileDir(t.TempDir())}, opts...)...)
}

func TestFileUploadObject(t *testing.T) {
	e := newFilesEnv(t)
	f := e.uploadFile(t, "report.pdf", "application/pdf", "%PDF-1.7 body")
	requireKeys(t, f, "type", "id", "filename", "mime_type", "size_bytes", "created_at", "downloadable", "expires_at", "scope")
	want := map[string]any{"type": "file", "id": "file_010000000000000000000001", "filename": "report.pdf", "mime_type": "application/pdf",
		"size_bytes": float64(13), "created_at": testNow, "downloadable": false, "expires_at": nil, "scope": nil}
	for k, v := range want {
		if f[k] != v {
			t.Errorf("%s = %v, want %v", k, f[k], v)
		}
	}
	got := wantOK(t, e.do(t, "GET", filesPath+"/"+f["id"].(string), ""))
	if mustMarshal(got) != mustMarshal(f) {
		t.Fatalf("retrieve %v, upload %v", got, f)
	}
	// The request log keeps no body of an upload.
	for _, r := range e.srv.Requests() {
		if r.Method == "POST" && r.Path == filesPath && r.Body != nil {
			t.Fatalf("upload body logged: %q", r.Body)
		}
	}
}

// filename and mime_type (docs/files-wire.md 2).
func TestFileNamesAndTypes(t *testing.T) {
	e := newFilesEnv(t)
	cases := []struct{ filename, contentType, wantName, wantType string }{
		{"dir/sub/data.csv", "", "data.csv", "text/csv"},
		{`C:\Users\me\notes.TXT`, "", "notes.TXT", "text/plain"},
		{"photo.png", "image/png; name=x", "photo.png", "image/png"},
		{"x.bin", "", "x.bin", "application/octet-stream"},
		{"report.pdf", "application/octet-stream", "report.pdf", "application/pdf"},
		{"data.json", "not a type", "data.json", "application/json"},
		{"", "application/pdf", "unnamed.pdf", "application/pdf"},
		{"dir/", "", "unnamed", "application/octet-stream"},
		{"", "image/jpeg", "unnamed.jpg", "image/jpeg"},
	}
	for _, tc := range cases {
		f := e.uploadFile(t, tc.filename, tc.contentType, "x")
		if f["filename"] != tc.wantName || f["mime_type"] != tc.wantType {
			t.Errorf("%q %q: got %v %v, want %v %v", tc.filename, tc.contentType, f["filename"], f["mime_type"], tc.wantName, tc.wantType)
		}
	}
}

// Every rule and limit of docs/files-wire.md 3.
func TestFileUploadRules(t *testing.T) {
	e := newFilesEnv(t, refserver.WithMaxFileSize(10))
	file := filePart("a.txt", "", "hello")
	cases := []struct {
		name    string
		parts   []formPart
		status  int
		message string
	}{
		{"no file part", []formPart{fieldPart("expires_in_seconds", "3600")}, 400, "file: is required"},
		{"no parts", nil, 400, "file: is required"},
		{"two file parts", []formPart{file, file}, 400, "file: must appear once"},
		{"unknown part", []formPart{fieldPart("purpose", "x"), file}, 400, "purpose: unknown field"},
		{"unknown part after the file", []formPart{file, fieldPart("purpose", "x")}, 400, "purpose: unknown field"},
		{"expiry twice", []formPart{fieldPart("expires_in_seconds", "3600"), fieldPart("expires_in_seconds", "3600"), file}, 400, "expires_in_seconds: must appear once"},
		{"expiry below", []formPart{fieldPart("expires_in_seconds", "3599"), file}, 400, "expires_in_seconds: must be between 3600 and 7776000"},
		{"expiry above", []formPart{fieldPart("expires_in_seconds", "7776001"), file}, 400, "expires_in_seconds: must be between 3600 and 7776000"},
		{"expiry not an integer", []formPart{file, fieldPart("expires_in_seconds", "1h")}, 400, "expires_in_seconds: must be between 3600 and 7776000"},
		{"expiry decimal", []formPart{fieldPart("expires_in_seconds", "3600.0"), file}, 400, "expires_in_seconds: must be between 3600 and 7776000"},
		{"expiry empty", []formPart{fieldPart("expires_in_seconds", ""), file}, 400, "expires_in_seconds: must be between 3600 and 7776000"},
		{"expiry at min", []formPart{fieldPart("expires_in_seconds", "3600"), file}, 200, ""},
		{"expiry at max", []formPart{file, fieldPart("expires_in_seconds", "7776000")}, 200, ""},
		{"at the size limit", []formPart{filePart("a.txt", "", "0123456789")}, 200, ""},
		{"past the size limit", []formPart{filePart("a.txt", "", "0123456789A")}, 413, "file: must be at most 10 bytes"},
		{"empty file", []formPart{filePart("a.txt", "", "")}, 400, "file: must not be empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.upload(t, tc.parts)
			switch tc.status {
			case 200:
				wantOK(t, r)
			case 413:
				wantError(t, r, 413, "request_too_large", tc.message)
			default:
				wantInvalid(t, r, tc.message)
			}
		})
	}
	notMultipart := map[string]mod{
		"json":           withHeader("Content-Type", "application/json"),
		"no boundary":    withHeader("Content-Type", "multipart/form-data"),
		"mixed":          withHeader("Content-Type", "multipart/mixed; boundary=xYzZY"),
		"no type at all": withHeader("Content-Type"),
	}
	for name, m := range notMultipart {
		t.Run(name, func(t *testing.T) {
			wantInvalid(t, e.upload(t, []formPart{file}, m), "request body: must be multipart/form-data")
		})
	}
	t.Run("truncated body", func(t *testing.T) {
		body := multipartBody("xYzZY", file)
		wantInvalid(t, e.do(t, "POST", filesPath, body[:len(body)-12], multipartType("xYzZY")), "request body: must be multipart/form-data")
	})
	// Nothing refused was stored.
	ids, _ := e.listFiles(t, "?limit=100")
	if len(ids) != 3 {
		t.Fatalf("%d files stored, want the 3 accepted", len(ids))
	}
	// Authentication comes before the body.
	wantError(t, e.upload(t, []formPart{file}, noAuth), 401, "authentication_error", "")
}

// The upload is not bound by the 32 MiB JSON limit, and a body in any
// encoding is taken as bytes.
func TestFileUploadLargerThanJSONLimit(t *testing.T) {
	e := newFilesEnv(t)
	const size = 33 << 20
	content := strings.Repeat("\xff\x00", size/2)
	f := e.uploadFile(t, "big.bin", "", content)
	if f["size_bytes"] != float64(size) {
		t.Fatalf("size %v", f["size_bytes"])
	}
}

func TestFileDownload(t *testing.T) {
	e := newFilesEnv(t)
	ws := e.seed.DefaultWorkspaceID
	id, err := e.srv.PutFile(ws, "out/result.csv", "", strings.NewReader("a,b\n1,2\n"))
	must(t, err)
	f := wantOK(t, e.do(t, "GET", filesPath+"/"+id, ""))
	if f["downloadable"] != true || f["filename"] != "result.csv" || f["mime_type"] != "text/csv" {
		t.Fatalf("put file %v", f)
	}
	r := e.do(t, "GET", filesPath+"/"+id+"/content", "")
	if r.status != 200 || string(r.body) != "a,b\n1,2\n" {
		t.Fatalf("download %d %q", r.status, r.body)
	}
	for name, want := range map[string]string{
		"Content-Type": "text/csv", "Content-Length": "8", "Content-Disposition": `attachment; filename="result.csv"`,
	} {
		if got := r.header.Get(name); got != want {
			t.Errorf("%s %q, want %q", name, got, want)
		}
	}
	// A name that is not plain ASCII also goes as filename*.
	id2, err := e.srv.PutFile(ws, `résumé "v2".txt`, "text/plain; charset=utf-8", strings.NewReader("x"))
	must(t, err)
	r = e.do(t, "GET", filesPath+"/"+id2+"/content", "")
	if got, want := r.header.Get("Content-Disposition"), `attachment; filename="r_sum_ \"v2\".txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22v2%22.txt`; got != want {
		t.Errorf("Content-Disposition %q, want %q", got, want)
	}
	if got := r.header.Get("Content-Type"); got != "text/plain" {
		t.Errorf("Content-Type %q", got)
	}
	// Uploaded files are not downloadable.
	up := e.uploadFile(t, "a.txt", "", "hello")["id"].(string)
	wantInvalid(t, e.do(t, "GET", filesPath+"/"+up+"/content", ""), "file_id: file `"+up+"` is not downloadable")
	wantError(t, e.do(t, "GET", filesPath+"/file_nope/content", ""), 404, "not_found_error", "File `file_nope` not found.")
}

func TestFileDelete(t *testing.T) {
	e := newFilesEnv(t)
	id := e.uploadFile(t, "a.txt", "", "hello")["id"].(string)
	got := wantOK(t, e.do(t, "DELETE", filesPath+"/"+id, ""))
	if mustMarshal(got) != `{"id":"`+id+`","type":"file_deleted"}` {
		t.Fatalf("delete %v", got)
	}
	notFound := "File `" + id + "` not found."
	wantError(t, e.do(t, "GET", filesPath+"/"+id, ""), 404, "not_found_error", notFound)
	wantError(t, e.do(t, "DELETE", filesPath+"/"+id, ""), 404, "not_found_error", notFound)
	if ids, _ := e.listFiles(t, ""); len(ids) != 0 {
		t.Fatalf("listed after delete: %v", ids)
	}
}

// A file belongs to its workspace: 404 everywhere else.
func TestFilesAreWorkspaceScoped(t *testing.T) {
	e := newFilesEnv(t)
	id := e.uploadFile(t, "a.txt", "", "hello")["id"].(string)
	put, err := e.srv.PutFile(e.seed.DefaultWorkspaceID, "b.txt", "", strings.NewReader("b"))
	must(t, err)
	other := e.srv.CreateWorkspace("other")
	must(t, e.srv.GrantAPIAccess(e.seed.UserID, other))
	in := withWorkspace(other)
	for _, fid := range []string{id, put} {
		msg := "File `" + fid + "` not found."
		wantError(t, e.do(t, "GET", filesPath+"/"+fid, "", in), 404, "not_found_error", msg)
		wantError(t, e.do(t, "GET", filesPath+"/"+fid+"/content", "", in), 404, "not_found_error", msg)
		wantError(t, e.do(t, "DELETE", filesPath+"/"+fid, "", in), 404, "not_found_error", msg)
	}
	if ids, _ := e.listFiles(t, "", in); len(ids) != 0 {
		t.Fatalf("other workspace lists %v", ids)
	}
	if ids, _ := e.listFiles(t, ""); len(ids) != 2 {
		t.Fatalf("own workspace lists %v", ids)
	}
}

// expires_at is created_at + expires_in_seconds by the server's clock;
// from then on the file is 404 and not listed.
func TestFileExpiry(t *testing.T) {
	e := newFilesEnv(t)
	f := wantOK(t, e.upload(t, []formPart{fieldPart("expires_in_seconds", "3600"), filePart("a.txt", "", "hello")}))
	id := f["id"].(string)
	if f["expires_at"] != "2026-11-25T22:56:21.123456Z" {
		t.Fatalf("expires_at %v", f["expires_at"])
	}
	keep := e.uploadFile(t, "b.txt", "", "kept")["id"].(string)
	e.clock.Advance(time.Hour - time.Microsecond)
	wantOK(t, e.do(t, "GET", filesPath+"/"+id, ""))
	e.clock.Advance(time.Microsecond)
	msg := "File `" + id + "` not found."
	wantError(t, e.do(t, "GET", filesPath+"/"+id, ""), 404, "not_found_error", msg)
	wantError(t, e.do(t, "DELETE", filesPath+"/"+id, ""), 404, "not_found_error", msg)
	if ids, _ := e.listFiles(t, ""); len(ids) != 1 || ids[0] != keep {
		t.Fatalf("listed %v, want only %s", ids, keep)
	}
}

// Newest first, paged by cursor; ids and scope_id filter.
func TestFileList(t *testing.T) {
	e := newFilesEnv(t)
	ws := e.seed.DefaultWorkspaceID
	var all []string
	for i := range 5 {
		all = append(all, e.uploadFile(t, fmt.Sprintf("f%d.txt", i), "", "x")["id"].(string))
		e.clock.Advance(time.Second)
	}
	scoped, err := e.srv.PutSessionFile(ws, "sesn_01abc", "out.txt", "", strings.NewReader("s"))
	must(t, err)
	all = append(all, scoped)
	newestFirst := make([]string, len(all))
	for i, id := range all {
		newestFirst[len(all)-1-i] = id
	}
	var paged []string
	query := "?limit=2"
	for pages := 0; ; pages++ {
		ids, next := e.listFiles(t, query)
		paged = append(paged, ids...)
		if next == nil {
			if pages != 2 {
				t.Fatalf("%d pages", pages+1)
			}
			break
		}
		query = "?limit=2&page=" + url.QueryEscape(next.(string))
	}
	if strings.Join(paged, ",") != strings.Join(newestFirst, ",") {
		t.Fatalf("paged %v, want %v", paged, newestFirst)
	}
	if ids, next := e.listFiles(t, ""); len(ids) != 6 || next != nil {
		t.Fatalf("default page %v %v", ids, next)
	}
	ids, _ := e.listFiles(t, "?ids="+all[1]+"&ids="+all[3]+"&ids=file_unknown")
	if strings.Join(ids, ",") != all[3]+","+all[1] {
		t.Fatalf("ids filter %v", ids)
	}
	ids, _ = e.listFiles(t, "?scope_id=sesn_01abc")
	if len(ids) != 1 || ids[0] != scoped {
		t.Fatalf("scope_id filter %v", ids)
	}
	f := wantOK(t, e.do(t, "GET", filesPath+"/"+scoped, ""))
	if mustMarshal(f["scope"]) != `{"id":"sesn_01abc","type":"session"}` {
		t.Fatalf("scope %v", f["scope"])
	}
	many := "?ids=" + strings.Repeat("file_x&ids=", 100) + "file_x"
	bad := map[string]string{
		"?limit=0":        "limit: must be between 1 and 1000",
		"?limit=1001":     "limit: must be between 1 and 1000",
		"?page=nope":      "page: invalid cursor",
		many:              "ids: must have at most 100 values",
		"?ids=sesn_01abc": "ids: `sesn_01abc` is not a file id (`file_…`)",
		"?ids=file_":      "ids: `file_` is not a file id (`file_…`)",
	}
	for q, msg := range bad {
		wantInvalid(t, e.do(t, "GET", filesPath+q, ""), msg)
	}
	if ids, _ := e.listFiles(t, "?limit=1000&ids="+strings.Repeat("file_x&ids=", 99)+"file_x"); len(ids) != 0 {
		t.Fatalf("100 unknown ids listed %v", ids)
	}
}

// Idempotency-Key on an upload: the same form (whatever its boundary)
// replays the first file and stores nothing; other bytes are a 400.
func TestFileUploadIdempotency(t *testing.T) {
	e := newFilesEnv(t)
	key := withHeader("Idempotency-Key", "upload-1")
	parts := []formPart{filePart("a.txt", "text/plain", "hello"), fieldPart("expires_in_seconds", "7200")}
	first := e.upload(t, parts, key)
	f := wantOK(t, first)
	again := e.do(t, "POST", filesPath, multipartBody("another-boundary", parts...), multipartType("another-boundary"), key)
	if got := wantOK(t, again); mustMarshal(got) != mustMarshal(f) || again.header.Get("idempotent-replayed") != "true" {
		t.Fatalf("replay %v (replayed %q), first %v", got, again.header.Get("idempotent-replayed"), f)
	}
	other := []formPart{filePart("a.txt", "text/plain", "hellO"), fieldPart("expires_in_seconds", "7200")}
	wantInvalid(t, e.upload(t, other, key), "Idempotency-Key: was already used for a different request")
	wantInvalid(t, e.upload(t, parts[:1], key), "Idempotency-Key: was already used for a different request")
	if ids, _ := e.listFiles(t, ""); len(ids) != 1 {
		t.Fatalf("%d files stored, want 1", len(ids))
	}
	// A refused first attempt is not stored: the key still works.
	k2 := withHeader("Idempotency-Key", "upload-2")
	wantInvalid(t, e.upload(t, []formPart{filePart("a.txt", "", "")}, k2), "file: must not be empty")
	wantOK(t, e.upload(t, parts, k2))
	wantInvalid(t, e.upload(t, parts, withHeader("Idempotency-Key", "")), "Idempotency-Key: must be between 1 and 255 characters")
}

// A fault on the upload path takes the request by method and path, with
// the body (binary, larger than the JSON limit allows) left unread; the
// retry uploads.
func TestFileUploadFault(t *testing.T) {
	e := newFilesEnv(t)
	e.srv.InjectFault(refserver.Fault{Method: "POST", Path: filesPath, Status: http.StatusServiceUnavailable})
	parts := []formPart{filePart("a.bin", "", "\xff\xfe"+strings.Repeat("x", 1<<20))}
	wantError(t, e.upload(t, parts), 503, "api_error", "")
	wantOK(t, e.upload(t, parts))
}

// PutFileWithID stores a file under a fixed id, replacing one that has it;
// anything but a file id is refused.
func TestPutFileWithID(t *testing.T) {
	e := newFilesEnv(t)
	ws := e.seed.DefaultWorkspaceID
	must(t, e.srv.PutFileWithID(ws, "file_02", "a.txt", "", strings.NewReader("one")))
	must(t, e.srv.PutFileWithID(ws, "file_02", "b.md", "", strings.NewReader("three")))
	f := wantOK(t, e.do(t, "GET", filesPath+"/file_02", ""))
	if f["filename"] != "b.md" || f["mime_type"] != "text/markdown" || f["size_bytes"] != float64(5) || f["downloadable"] != true {
		t.Fatalf("file %v", f)
	}
	if ids, _ := e.listFiles(t, ""); len(ids) != 1 {
		t.Fatalf("listed %v", ids)
	}
	if err := e.srv.PutFileWithID(ws, "doc_1", "a.txt", "", strings.NewReader("x")); err == nil {
		t.Fatal("a non-file id was accepted")
	}
}
