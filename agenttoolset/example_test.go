package agenttoolset_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/agentplatform/agentplatform-go/agenttoolset"
)

// A worker builds the toolset on the session's directory and answers each
// tool call with the tool of that name.
func ExampleNew() {
	dir, err := os.MkdirTemp("", "session")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	ts, err := agenttoolset.New(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer ts.Close()

	calls := []struct{ name, input string }{
		{"write", `{"file_path": "notes/todo.txt", "content": "buy milk\nfix bug\n"}`},
		{"edit", `{"file_path": "notes/todo.txt", "old_string": "fix bug", "new_string": "fix the bug"}`},
		{"read", `{"file_path": "notes/todo.txt"}`},
		{"glob", `{"pattern": "**/*.txt"}`},
		{"read", `{"file_path": "../outside.txt"}`},
	}
	for _, call := range calls {
		for _, tl := range ts.Tools() {
			if tl.Name() == call.name {
				res := tl.Run(context.Background(), []byte(call.input))
				fmt.Printf("%s (error: %v):\n%s\n", call.name, res.IsError, res.TextContent())
			}
		}
	}
	// Output:
	// write (error: false):
	// created notes/todo.txt (17 bytes)
	// edit (error: false):
	// edited notes/todo.txt: 1 replacement(s)
	// read (error: false):
	//      1	buy milk
	//      2	fix the bug
	//
	// glob (error: false):
	// notes/todo.txt
	//
	// read (error: true):
	// file_path "../outside.txt" leads outside the working directory
}
