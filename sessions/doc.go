// Package sessions manages sessions (SPEC 2.2, 4.1-4.3, 4.5, 4.7, 4.15): a running conversation of an agent in an environment, and its resources.
//
// Every call sends the vendor-beta value these endpoints require (Beta).
package sessions
