package sessions

import (
	"encoding/json"
	"strconv"
	"strings"
)

// The scripted agent's read tool on a mounted file (docs/files-wire.md 4):
// a UseTool("read", {"file_path": P}) step without a ToolOutput option, on
// a session with a file resource mounted at P, returns the file's bytes as
// text, so that a test can go upload → attach → read. Anything else keeps
// the default result.

// maxReadBytes caps what the read tool returns of a file: the engine reads
// it under the server's lock, and the result goes into an event. Past it
// the text ends with a note saying how much was left out.
const maxReadBytes = 1 << 20

// readFilePath is the file_path of a read call's input, or "".
func readFilePath(raw json.RawMessage) string {
	var in struct {
		FilePath string `json:"file_path"`
	}
	if json.Unmarshal(raw, &in) != nil {
		return ""
	}
	return in.FilePath
}

// readMounted is the result of reading path: the content of the file
// mounted there (invalid UTF-8 replaced), an error result when that file is
// gone (deleted or expired since it was attached), or def when no file is
// mounted at path.
func (e *engine) readMounted(path string, def toolOutput) toolOutput {
	if e.s.deps.FileContentLocked == nil {
		return def
	}
	for _, r := range e.x.resources {
		if r.typ != "file" || r.mountPath != path {
			continue
		}
		data, truncated, err := e.s.deps.FileContentLocked(e.x.workspaceID, r.fileID, maxReadBytes, e.now)
		if err != nil {
			return toolOutput{text: "File not found: " + path, isError: true}
		}
		text := strings.ToValidUTF8(string(data), "\uFFFD")
		if truncated {
			text += "\n[truncated: only the first " + strconv.Itoa(maxReadBytes) + " bytes are shown]"
		}
		return toolOutput{text: text}
	}
	return def
}
