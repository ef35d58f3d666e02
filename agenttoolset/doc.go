// Package agenttoolset runs the agent toolset's sandbox tools — bash, read,
// write, edit, glob and grep — on the local machine, for self-hosted
// environments whose worker answers the model's tool calls itself.
//
// New confines a Toolset to one directory, and Tools returns the six tools
// as tool.Tool values, ready for a worker or a tool runner:
//
//	ts, err := agenttoolset.New("/srv/session-42")
//	if err != nil {
//		return err
//	}
//	defer ts.Close()
//	tools := ts.Tools()
//
// # Confinement
//
// The file tools reach only the toolset's directory. A relative path is
// taken relative to it; an absolute path must lie inside it. Every file is
// opened through an os.Root, so a ".." or a symbolic link that leads
// outside the directory is refused, not followed; glob and grep do not walk
// into symbolic links at all. Files larger than the size cap
// (WithMaxFileSize) are refused before they are loaded.
//
// # Bash is not confined
//
// The bash tool runs a real shell whose working directory is the toolset's
// directory; nothing stops a command from reading or writing elsewhere, so
// run the worker itself inside a sandbox the host controls. What the
// toolset does guarantee: the shell does not inherit the worker's
// environment (which holds API credentials) — it sees only PATH,
// HOME (the directory), LANG, TERM and the variables given with WithEnv;
// each command runs in its own process group, which is killed as a whole
// when the command ends, times out or is cancelled, and when the toolset
// is closed, so no background process outlives its command.
//
// Each command runs in a fresh shell: shell variables and the current
// directory do not carry over from one call to the next, which is why a
// call with restart set has nothing to reset and simply succeeds.
//
// Bash needs a Unix system; elsewhere the bash tool refuses every call and
// the file tools work as usual.
package agenttoolset
