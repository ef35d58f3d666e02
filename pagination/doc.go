// Package pagination holds the two page shapes of the API and the iterators
// that walk them.
//
// Every list endpoint has two methods: List returns one page, All returns an
// iter.Seq2 that fetches pages lazily, as the loop asks for more, and stops
// fetching when the loop breaks:
//
//	for ws, err := range client.Workspaces.All(ctx, workspaces.ListParams{}) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(ws.Name)
//	}
//
// List returns the page types of this package. Cursor pages (agents,
// environments, sessions with their events and resources, deployments and
// their runs, memory stores, tunnels) carry an opaque NextPage cursor: pass
// it as the next List call's Page. Id pages (workspaces, models, API keys)
// carry FirstID, LastID and HasMore: pass LastID as AfterID. Cursor and
// ByID are the iterators behind every All.
package pagination
