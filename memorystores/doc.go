// Package memorystores manages memory stores (SPEC 2.9, 4.4) and the memories inside them, which sessions can mount.
//
// Every call sends the vendor-beta value these endpoints require (Beta).
package memorystores
