package messages

// JSONEqualUpToNulls is jsonEqualUpToNulls, for the external tests.
var JSONEqualUpToNulls = jsonEqualUpToNulls
