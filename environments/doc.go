// Package environments manages environments: the container configuration (cloud or self-hosted) that sessions run in.
//
// Every call sends the vendor-beta value these endpoints require (Beta).
package environments
