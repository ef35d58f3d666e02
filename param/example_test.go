package param_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"

	"github.com/agentplatform/agentplatform-go/param"
)

// A Nullable field has three states, and the omitzero tag option is what
// lets the zero value ("leave it alone") disappear from the JSON.
func ExampleNullable() {
	type update struct {
		Title  param.Nullable[string] `json:"title,omitzero"`
		Budget param.Nullable[int]    `json:"budget,omitzero"`
		Owner  param.Nullable[string] `json:"owner,omitzero"`
	}
	u := update{
		Title:  param.Value("Order #1234"), // set it
		Budget: param.Null[int](),          // clear it: sends null
		// Owner left zero: omitted, so the server keeps it
	}
	b, err := json.Marshal(u)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	fmt.Printf("title=%v budget=%v owner=%v\n", u.Title, u.Budget, u.Owner)

	if title, ok := u.Title.Get(); ok {
		fmt.Println("title is set to", title)
	}
	// Output:
	// {"title":"Order #1234","budget":null}
	// title=Order #1234 budget=null owner=<omitted>
	// title is set to Order #1234
}

// A Secret marshals to its value, which is what the API needs, but never
// prints or logs it, so params can be dumped while debugging.
func ExampleSecret() {
	type repo struct {
		URL   string       `json:"url"`
		Token param.Secret `json:"authorization_token"`
	}
	r := repo{URL: "https://github.com/example-org/example-repo", Token: "ghp_example"}

	fmt.Printf("%v\n", r)
	fmt.Printf("%+v\n", r)
	fmt.Println(param.Value(r.Token)) // still redacted inside a Nullable

	// log/slog redacts it too (the time is left out to keep the output stable).
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	logger.Info("cloning", "token", r.Token)

	b, _ := json.Marshal(r) // on the wire, the real value
	fmt.Println(string(b))
	// Output:
	// {https://github.com/example-org/example-repo [redacted]}
	// {URL:https://github.com/example-org/example-repo Token:[redacted]}
	// [redacted]
	// level=INFO msg=cloning token=[redacted]
	// {"url":"https://github.com/example-org/example-repo","authorization_token":"ghp_example"}
}
