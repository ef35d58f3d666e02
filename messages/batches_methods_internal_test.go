package messages

// The batch wire types join TestWireTypesHaveJSONMethods' list from their
// own file.
func init() {
	wireTypes = append(wireTypes, Batch{}, BatchRequestCounts{}, DeletedBatch{})
}
