package deployments

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/schedule"
)

// Deployment schedules (docs/managed-agents-wire.md 8.1, 8.2, 8.7): validation by
// the schedule package, the schedule object on the wire, and the
// bookkeeping that keeps firing cheap. Each deployment that can fire knows
// its next fire time; the state knows the earliest of them, so the check
// that runs before every request is one comparison when nothing is due.

const (
	maxScheduleExpression = 256
	upcomingRuns          = 5
)

type scheduleBody struct {
	Type       kit.Optional[string] `json:"type"`
	Expression kit.Optional[string] `json:"expression"`
	Timezone   kit.Optional[string] `json:"timezone"`
}

// parseSchedule reads a non-null schedule object at path ("schedule").
// The lengths of 1.4 are checked here; the cron grammar and the IANA
// timezone are the schedule package's, whose *schedule.Error already names
// the body field.
func parseSchedule(path string, raw json.RawMessage) (*schedule.Schedule, error) {
	typ, err := kit.TypeAt(path, raw)
	if err != nil {
		return nil, err
	}
	if typ != "cron" {
		return nil, kit.BadType(path, "cron")
	}
	var body scheduleBody
	if err := kit.DecodeAt(path, raw, &body); err != nil {
		return nil, err
	}
	exprPath, tzPath := kit.JoinPath(path, "expression"), kit.JoinPath(path, "timezone")
	if err := kit.Required(exprPath, body.Expression); err != nil {
		return nil, err
	}
	if err := kit.CheckLength(exprPath, body.Expression.Value, 1, maxScheduleExpression); err != nil {
		return nil, err
	}
	if err := kit.Required(tzPath, body.Timezone); err != nil {
		return nil, err
	}
	if body.Timezone.Value == "" {
		return nil, kit.InvalidField(tzPath, "must be at least 1 character")
	}
	sch, err := schedule.Parse(body.Expression.Value, body.Timezone.Value)
	if err != nil {
		var se *schedule.Error
		if errors.As(err, &se) {
			return nil, kit.InvalidField(se.Field, "%s", se.Rule)
		}
		return nil, kit.InvalidField(path, "%s", err.Error())
	}
	return sch, nil
}

type scheduleJSON struct {
	Type           string          `json:"type"`
	Expression     string          `json:"expression"`
	Timezone       string          `json:"timezone"`
	LastRunAt      *kit.Timestamp  `json:"last_run_at"`
	UpcomingRunsAt []kit.Timestamp `json:"upcoming_runs_at"`
}

// scheduleView renders d's schedule at now: the next five fire times for
// active and paused deployments, none once archived
// (docs/managed-agents-wire.md 8.1; no jitter, **choice**).
func (d *deployment) scheduleView(now time.Time) *scheduleJSON {
	if d.schedule == nil {
		return nil
	}
	upcoming := []kit.Timestamp{}
	if !d.archived() {
		for _, t := range d.schedule.Upcoming(now, upcomingRuns) {
			upcoming = append(upcoming, kit.Timestamp(t))
		}
	}
	return &scheduleJSON{Type: "cron", Expression: d.schedule.Expression(), Timezone: d.schedule.Timezone(),
		LastRunAt: kit.OptionalTimestamp(d.lastRunAt), UpcomingRunsAt: upcoming}
}

// canFire reports whether d's schedule fires: it has one, is active and is
// not archived.
func (d *deployment) canFire() bool {
	return d.schedule != nil && d.status == deploymentActive && !d.archived()
}

// rearmLocked records that d's schedule has been dealt with up to `from`
// and computes its next fire time, then refreshes the earliest of all.
// Every change to a deployment's schedule, status or archived state calls
// it, so occurrences before that change are never fired afterwards: a
// paused deployment does not backfill on unpause.
func (s *Service) rearmLocked(d *deployment, from time.Time) {
	d.checkedUntil, d.nextFireAt = from, time.Time{}
	if d.canFire() {
		d.nextFireAt = d.schedule.Next(from) // zero if it never fires again
	}
	s.refreshEarliestLocked()
}

// refreshEarliestLocked recomputes the soonest next fire time.
func (s *Service) refreshEarliestLocked() {
	var earliest time.Time
	for _, d := range s.deployments.byID {
		if !d.nextFireAt.IsZero() && (earliest.IsZero() || d.nextFireAt.Before(earliest)) {
			earliest = d.nextFireAt
		}
	}
	s.deployments.earliest = earliest
}
