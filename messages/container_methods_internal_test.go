package messages

// The container skill joins TestWireTypesHaveJSONMethods' list from its own
// file.
func init() {
	wireTypes = append(wireTypes, ContainerSkill{})
}
