package form_test

import (
	"io"
	"mime"
	"mime/multipart"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/form"
)

// A laid-out body parses back as the form it describes, its Size is its
// exact length, and a file of unknown size makes the Size unknown.
func TestLayoutIsTheForm(t *testing.T) {
	files := []form.File{
		{Field: "files[]", Filename: `a "quoted" \ name.md`, ContentType: "text/markdown", Size: 5},
		{Field: "files[]", Filename: "b.bin", Size: 3},
	}
	l, err := form.New([]form.Field{{Name: "display_name", Value: "x"}}, files)
	require.NoError(t, err)
	body, err := io.ReadAll(l.Reader(strings.NewReader("hello"), strings.NewReader("abc")))
	require.NoError(t, err)
	require.Equal(t, int64(len(body)), l.Size)

	_, params, err := mime.ParseMediaType(l.ContentType)
	require.NoError(t, err)
	mr := multipart.NewReader(strings.NewReader(string(body)), params["boundary"])
	var got []string
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		data, err := io.ReadAll(p)
		require.NoError(t, err)
		got = append(got, p.FormName()+"|"+p.FileName()+"|"+p.Header.Get("Content-Type")+"|"+string(data))
	}
	require.Equal(t, []string{
		"display_name|||x",
		`files[]|a "quoted" \ name.md|text/markdown|hello`,
		"files[]|b.bin||abc",
	}, got)

	unknown, err := form.New(nil, []form.File{{Field: "file", Filename: "f", Size: -1}})
	require.NoError(t, err)
	require.Equal(t, int64(-1), unknown.Size)
}
