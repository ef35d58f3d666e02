// Package option configures the client and single calls.
//
// Every option works in both places: given to agentplatform.NewClient it
// applies to every call; given to one method it applies to that call only and
// wins over the client's setting.
//
//	client, err := agentplatform.NewClient(
//		option.WithAPIKey(key),
//		option.WithMaxRetries(4),
//	)
//	ws, err := client.Workspaces.Get(ctx, id, option.WithRequestTimeout(5*time.Second))
//
// Without options the client reads VENDOR_API_KEY, VENDOR_BASE_URL and
// VENDOR_WORKSPACE_ID from the environment.
package option
