// Package pagination holds the two page shapes of the API (SPEC 2.1) and the
// iterators that walk them.
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
// Cursor pages (managed agents, memory stores, tunnels) carry an opaque
// next_page cursor. Id pages (workspaces, models) carry first_id, last_id and
// has_more.
package pagination
