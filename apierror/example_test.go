package apierror_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

// errors.Is with a sentinel answers "what kind of failure"; errors.As gives
// the details to log or to quote to support (the request id). Both work
// through any wrapping your code adds. The example uses platformtest, the
// in-process reference server; a program calls agentplatform.NewClient().
func ExampleError() {
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

	_, err = client.Models.Get(context.Background(), "no-such-model")
	err = fmt.Errorf("loading the model: %w", err)

	fmt.Println(errors.Is(err, apierror.ErrNotFound))
	var apiErr *apierror.Error
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Type, apiErr.Method, apiErr.Path)
		fmt.Println(apiErr.Message)
		fmt.Println(apiErr.RequestID != "", apiErr.Temporary())
	}
	// Output:
	// true
	// 404 not_found_error GET /v1/models/no-such-model
	// Model `no-such-model` not found.
	// true false
}

// Temporary says whether a failure is worth trying again later: the client
// has already retried it (twice by default) before returning it.
func ExampleError_Temporary() {
	srv, client, done := exampleServer()
	defer done()

	// The test server answers 529 three times: the first attempt and both retries.
	srv.InjectFault(platformtest.Fault{Path: "/v1/models", Status: 529, Times: 3})
	_, err := client.Models.List(context.Background(), models.ListParams{})

	var apiErr *apierror.Error
	if errors.As(err, &apiErr) && apiErr.Temporary() {
		fmt.Println("try again later:", apiErr.StatusCode, apiErr.Type)
	}
	fmt.Println(errors.Is(err, apierror.ErrOverloaded), len(srv.Requests()), "attempts")
	// Output:
	// try again later: 529 overloaded_error
	// true 3 attempts
}

// A parameter the SDK can check is refused before anything is sent, with
// the field's wire name. It also matches ErrInvalidRequest, so one check
// covers local and server-side refusals.
func ExampleValidationError() {
	srv, client, done := exampleServer()
	defer done()

	_, err := client.Workspaces.Create(context.Background(), workspaces.CreateParams{Name: ""})

	var invalid *apierror.ValidationError
	if errors.As(err, &invalid) {
		fmt.Println(invalid.Field, "—", invalid.Rule)
	}
	fmt.Println(err)
	fmt.Println(errors.Is(err, apierror.ErrInvalidRequest))
	fmt.Println(len(srv.Requests()), "requests sent")
	// Output:
	// name — must be between 1 and 255 characters
	// agentplatform: invalid parameter name: must be between 1 and 255 characters
	// true
	// 0 requests sent
}

// exampleServer starts a reference server and returns it with a client for it
// and a function that closes both, as ExampleError does step by step.
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
