// Package deployments manages deployments and deployment runs
// (docs/managed-agents-wire.md 8 and 9): an agent bound to an environment,
// resources, credentials and initial events, started by hand or on a cron
// schedule.
//
//	dep, err := client.Deployments.Create(ctx, deployments.CreateParams{
//		Name:          "Daily order report",
//		Agent:         agent.Reference(),
//		EnvironmentID: env.ID,
//		InitialEvents: []sessions.EventParam{sessions.UserMessage("Compile yesterday's orders into report.md.")},
//		Resources: []sessions.ResourceParam{sessions.RepositoryResourceParam{
//			URL: "https://github.com/example-org/reports", AuthorizationToken: param.Secret(token),
//		}},
//		Schedule: &deployments.ScheduleParam{Expression: "0 9 * * 1-5", Timezone: "America/Los_Angeles"},
//	})
//	fmt.Println(dep.Schedule.UpcomingRunsAt) // the next fire times, UTC
//
//	run, err := client.Deployments.RunNow(ctx, dep.ID) // now, by hand
//	if run.Error != nil { … } else { … run.SessionID … }
//
//	for r, err := range client.Deployments.Runs.All(ctx, deployments.RunListParams{DeploymentID: dep.ID}) {
//		if t, ok := r.TriggerContext.(deployments.ScheduleTrigger); ok { … t.ScheduledAt … }
//	}
//
// A scheduled fire that cannot create its session (an archived
// environment, say) records a failed run and pauses the deployment with an
// ErrorPause reason; fix the cause and Unpause. Archiving is final. In
// tests, platformtest's Server.Advance moves the server's clock so that
// schedules fire at once.
//
// Resources and initial events are the sessions package's request types,
// checked locally by its rules. A deployment returns its resources as
// ResourceConfig (the request without the repository token, which is never
// returned) and its events as sessions.EventParam, events of types newer
// than this SDK included.
//
// Unions (PausedReason, TriggerContext, ResourceConfig) are sealed
// interfaces with an Unknown variant that keeps the JSON of a type newer
// than this SDK. Enum-like string types (Status, RunErrorType, Trigger)
// keep unknown values, and every response type keeps members it does not
// know in its Extra field: json.Marshal writes a Deployment or a Run back
// as the API sent it (a null member may be left out).
//
// Every call sends the vendor-beta value these endpoints require
// ("managed-agents-2026-04-01").
package deployments
