package kit

// InferenceGeos are the values of inference_geo, on a request and in a
// workspace's data residency.
var InferenceGeos = []string{"global", "us"}
