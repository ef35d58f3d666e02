package option_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"os"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

// Options given to NewClient apply to every call; given to one call, they
// apply to it alone and win over the client's. The example points the
// client at platformtest, the in-process reference server; a program
// usually needs none of the first three options (VENDOR_API_KEY is read
// from the environment).
func Example() {
	srv, err := platformtest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	client, err := agentplatform.NewClient(
		option.WithBaseURL(srv.URL()),
		option.WithAPIKey(srv.APIKey()),
		option.WithWorkspaceID(srv.WorkspaceID()),
		option.WithRequestTimeout(time.Minute), // per attempt
	)
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()

	// The next request takes an hour to answer. This call cannot wait that
	// long, and a retry would not help it either.
	srv.InjectFault(platformtest.Fault{Delay: time.Hour})
	_, err = client.Models.Get(ctx, models.VendorOpus55,
		option.WithRequestTimeout(50*time.Millisecond),
		option.WithMaxRetries(0),
	)
	fmt.Println("timed out:", errors.Is(err, context.DeadlineExceeded))
	srv.ClearFaults() // had the call given up before its request arrived, the fault would still wait for one

	// The next call has the client's settings again.
	m, err := client.Models.Get(ctx, models.VendorOpus55)
	fmt.Println(m.DisplayName, err)
	// Output:
	// timed out: true
	// Vendor Opus 5.5 <nil>
}

// Middleware sees every attempt, retries included, after the SDK has
// added credentials and headers: the place for metrics or custom headers.
func ExampleWithMiddleware() {
	srv, client, done := exampleServer()
	defer done()

	attempts := func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(req)
		if err == nil {
			fmt.Println(req.Method, req.URL.Path, resp.StatusCode)
		}
		return resp, err
	}
	srv.InjectFault(platformtest.Fault{Status: 529})

	// Given to one call, the middleware sees that call only.
	_, err := client.Models.Get(context.Background(), models.VendorHaiku55, option.WithMiddleware(attempts))
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// GET /v1/models/vendor-haiku-5-5 529
	// GET /v1/models/vendor-haiku-5-5 200
}

// The logger gets one debug record per attempt, response and retry, with
// credentials redacted. Here it writes to stdout, leaving out what changes
// from run to run.
func ExampleWithLogger() {
	srv, client, done := exampleServer()
	defer done()

	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		Level: slog.LevelDebug, // the SDK logs at debug level only
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			switch a.Key {
			case slog.TimeKey, "url", "request_id", "elapsed", "wait":
				return slog.Attr{}
			case "headers": // keep only the credential, to show that it is redacted
				if h, ok := a.Value.Any().(map[string]string); ok {
					return slog.String("authorization", h["Authorization"])
				}
			}
			return a
		},
	}))
	srv.InjectFault(platformtest.Fault{Status: 503})

	_, err := client.Models.Get(context.Background(), models.VendorSonnet55, option.WithLogger(logger))
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// level=DEBUG msg="agentplatform: request" method=GET authorization=[redacted] body_bytes=0
	// level=DEBUG msg="agentplatform: response" method=GET path=/v1/models/vendor-sonnet-5-5 status=503
	// level=DEBUG msg="agentplatform: retrying" method=GET route=/v1/models/{model_id} retry=1 status=503
	// level=DEBUG msg="agentplatform: request" method=GET authorization=[redacted] body_bytes=0
	// level=DEBUG msg="agentplatform: response" method=GET path=/v1/models/vendor-sonnet-5-5 status=200
}

// WithMaxResponseSize bounds how much of a response the SDK reads before
// decoding it. A model is far larger than 64 bytes, so this call fails,
// typed, without reading the rest of the body or retrying.
func ExampleWithMaxResponseSize() {
	_, client, done := exampleServer()
	defer done()

	_, err := client.Models.Get(context.Background(), models.VendorOpus55, option.WithMaxResponseSize(64))
	var respErr *apierror.ResponseError
	if errors.As(err, &respErr) {
		fmt.Println(errors.Is(err, apierror.ErrResponseTooLarge), respErr.StatusCode, respErr.Limit)
	}
	// Output:
	// true 200 64
}

// WithResponseInto hands back the HTTP response of a call, for headers the
// result type does not carry.
func ExampleWithResponseInto() {
	_, client, done := exampleServer()
	defer done()

	var resp *http.Response
	_, err := client.Models.Get(context.Background(), models.VendorOpus55, option.WithResponseInto(&resp))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.StatusCode, resp.Header.Get("request-id") != "")
	// Output:
	// 200 true
}

// WithQuery sends a query parameter the method does not offer, or replaces
// one it sends: the way to use a new API parameter before the SDK models
// it. WithJSONSet does the same for a field of the request body.
func ExampleWithQuery() {
	_, client, done := exampleServer()
	defer done()

	page, err := client.Models.List(context.Background(), models.ListParams{Limit: 5}, option.WithQuery("limit", "2"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(page.Data))
	// Output:
	// 2
}

// WithJSONSet sets a field of the request body, here a nested one that
// CreateParams leaves out, overriding the SDK's value if it had one. A
// field the server does not know is refused by it, naming the field.
func ExampleWithJSONSet() {
	_, client, done := exampleServer()
	defer done()
	ctx := context.Background()

	ws, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "research"},
		option.WithJSONSet("data_residency.workspace_geo", "us"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ws.Name, ws.DataResidency.WorkspaceGeo)

	_, err = client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "research"},
		option.WithJSONSet("not_a_field", true))
	var apiErr *apierror.Error
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Message)
	}
	// Output:
	// research us
	// 400 not_a_field: unknown field
}

// exampleServer starts a reference server and returns it with a client for it
// and a function that closes both.
func exampleServer() (*platformtest.Server, *agentplatform.Client, func()) {
	srv, err := platformtest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	client, err := srv.Client()
	if err != nil {
		srv.Close()
		log.Fatal(err)
	}
	return srv, client, func() {
		client.Close()
		srv.Close()
	}
}
