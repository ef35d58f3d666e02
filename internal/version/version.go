// Package version holds the SDK's version, in a package that imports
// nothing, so that every package reporting it (the User-Agent header, the
// instrumentation scope of every span, the credentials' exchange spans)
// reads the same constant.
package version

// SDK is the SDK's version.
const SDK = "0.1.0"
