package schedule_test

import (
	"testing"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/agentplatform/agentplatform-go/internal/refserver/schedule"
)

// BenchmarkRobfigNext is the baseline: robfig's own Next, which this package
// does not use because of its daylight-saving behaviour.
func BenchmarkRobfigNext(b *testing.B) {
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		b.Fatal(err)
	}
	s, err := cron.ParseStandard("0 9 * * 1-5")
	if err != nil {
		b.Fatal(err)
	}
	s.(*cron.SpecSchedule).Location = loc
	at := time.Date(2026, 3, 6, 15, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		s.Next(at)
	}
}

func BenchmarkNext(b *testing.B) {
	s, err := schedule.Parse("0 9 * * 1-5", "America/New_York")
	if err != nil {
		b.Fatal(err)
	}
	at := time.Date(2026, 3, 6, 15, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		s.Next(at)
	}
}

// BenchmarkNextNever is the worst case of Next: five years of days scanned.
func BenchmarkNextNever(b *testing.B) {
	s, err := schedule.Parse("0 0 30 2 *", "America/New_York")
	if err != nil {
		b.Fatal(err)
	}
	at := time.Date(2026, 3, 6, 15, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		s.Next(at)
	}
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := schedule.Parse("*/15 9-17 * * 1-5,7", "Europe/Berlin"); err != nil {
			b.Fatal(err)
		}
	}
}
