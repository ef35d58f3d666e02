package messages

// SetMaxBatchBody lowers the batch body limit for a test; the returned
// function restores it.
func SetMaxBatchBody(n int) (restore func()) {
	old := maxBatchBody
	maxBatchBody = n
	return func() { maxBatchBody = old }
}

// SetMaxResultLine lowers the bound on a line of a batch's results for a
// test; the returned function restores it.
func SetMaxResultLine(n int) (restore func()) {
	old := maxResultLine
	maxResultLine = n
	return func() { maxResultLine = old }
}
