// Package deployments manages deployments (SPEC 2.10, 4.9) and deployment runs (SPEC 2.11, 4.6): an agent bound to an environment, started by hand or on a cron schedule.
//
// Every call sends the vendor-beta value these endpoints require (Beta).
package deployments
